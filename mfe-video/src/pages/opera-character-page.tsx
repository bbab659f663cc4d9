import { OperaCharacterStep } from '../flows/drama/steps/character-step';

/** `/video/operaCharacter` 真人短剧 · 角色配音: a voice per character. */
export function OperaCharacterPage() {
  return <OperaCharacterStep />;
}
