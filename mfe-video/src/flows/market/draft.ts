import { sessionValues, type VideoSettings } from '@kol/shared-sdk';

/** The marketing video's unsaved choices (`KOL_MARKET_DRAFT`), for the work in the address. */
export interface MarketDraft {
  workId: number | null;
  settings: Pick<
    VideoSettings,
    'aspect' | 'voiceId' | 'speed' | 'musicId' | 'callToAction' | 'imageUrls'
  >;
}

/**
 * The marketing video's own session value (`KOL_MARKET_DRAFT`): this remote's, not the SDK's.
 * Its template is the spec's `templateId` and the fields filled in are `templateContent`.
 */
export const marketSession = sessionValues<{ marketDraft: MarketDraft }>();
