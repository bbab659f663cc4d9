import { sessionValues, type VideoSettings } from '@kol/shared-sdk';

/**
 * The scrolling video's page state (`KOL_SCROLL_DRAFT`): the text and settings as typed, so a
 * reload loses nothing; its own value, since the comic clip saves whatever `KOL_VIDEO_CONFIG`
 * holds.
 */
export interface ScrollDraft {
  /** The work it was saved as (null until the first render makes it). */
  workId: number | null;
  title: string;
  text: string;
  settings: Pick<
    VideoSettings,
    'aspect' | 'voiceId' | 'speed' | 'musicId' | 'backgroundMaterialId'
  >;
}

/** The scrolling video's session value (`KOL_SCROLL_DRAFT`): this remote's own, not the SDK's. */
export const scrollSession = sessionValues<{ scrollDraft: ScrollDraft }>();
