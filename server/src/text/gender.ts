/**
 * A role's gender from the text: written once in the SDK's framework-free part, because the
 * voice pages infer it too for speakers that have no role yet (see shared-sdk/src/gender.ts).
 */
export { describedGender, inferGender, type Gender } from '@kol/shared-sdk/contracts';
