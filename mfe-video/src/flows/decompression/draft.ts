import { sessionValues, type VideoSettings } from '@kol/shared-sdk';

/**
 * The decompression page's input (`KOL_DECOMPRESSION_DRAFT`, overseas `…_OVERSEA`). Its own
 * value, not `KOL_VIDEO_CONTENT` / `KOL_VIDEO_CONFIG`: those are the comic clip's, and a
 * decompression text or background left there would turn up in the next comic clip.
 */
export interface DecompressionDraft {
  title: string;
  text: string;
  settings: Pick<
    VideoSettings,
    'aspect' | 'voiceId' | 'speed' | 'musicId' | 'captionStyle' | 'backgroundMaterialId'
  >;
  /**
   * The idempotency key of making this draft's work (with the text it is made from: see
   * idempotencyKeyFor), kept until the work is made: a 确认生成 again after a lost answer, even
   * after a reload, gets that work back instead of making a second one.
   */
  createKey?: string;
}

interface DecompressionSessionValues {
  decompressionDraft: DecompressionDraft;
  decompressionDraftOversea: DecompressionDraft;
}

/** The decompression video's session values: this remote's own, not the SDK's. */
export const decompressionSession = sessionValues<DecompressionSessionValues>();

/** The value of one variant: the overseas video keeps its own, so the two never overwrite. */
export function decompressionDraftName(overseas: boolean): keyof DecompressionSessionValues {
  return overseas ? 'decompressionDraftOversea' : 'decompressionDraft';
}
