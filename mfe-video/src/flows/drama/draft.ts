import { sessionValues, type VideoSettings } from '@kol/shared-sdk';

/**
 * The real-person drama's flow state between its pages (`KOL_OPERA_DRAFT`). Its own value, not
 * `KOL_VIDEO_CONFIG`: a script still being written has scenes without their clip or photo,
 * which VideoSettings' `scenes` refuses, and the comic clip saves whatever that value holds.
 */
export interface OperaDraft {
  /** The work the draft was saved as (null until the configuration page makes it). */
  workId: number | null;
  title: string;
  settings: Pick<VideoSettings, 'aspect' | 'musicId' | 'captionStyle' | 'speed' | 'roleVoices'>;
  scenes: OperaDraftScene[];
}

export interface OperaDraftScene {
  /** Stable across edits and reloads, so a list keeps each scene's inputs in place. */
  key: string;
  /** The uploaded clip or photo ('' until uploaded), its kind and the name it was uploaded as. */
  mediaUrl: string;
  mediaKind: 'image' | 'video' | '';
  mediaName: string;
  lines: Array<{ key: string; speaker: string; text: string }>;
}

/** The drama's session value (`KOL_OPERA_DRAFT`): this remote's own, not the SDK's. */
export const operaSession = sessionValues<{ operaDraft: OperaDraft }>();
