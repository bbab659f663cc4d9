import { ProjectType, type VideoSettings } from '@kol/shared-sdk';
import type { WithSaved } from '../../flow-kit/work-edits';
import { videoQuery } from '../../lib/video-address';
import { decompressionDraftName, decompressionSession, type DecompressionDraft } from './draft';

/**
 * The decompression video's flow state (types 1 and 6). The page's input lives in
 * `KOL_DECOMPRESSION_DRAFT` (overseas: `…_OVERSEA`), written on every change, so a reload loses
 * nothing typed; the type and the work travel in the address (`?videoType=6&workId=12`), as in
 * the comic flow.
 */

export type DecompressionType =
  typeof ProjectType.decompression | typeof ProjectType.decompressionOverseas;

/** `?videoType=6` is the overseas video; anything else the domestic one. */
export function decompressionTypeOf(params: URLSearchParams): DecompressionType {
  return Number(params.get('videoType')) === ProjectType.decompressionOverseas
    ? ProjectType.decompressionOverseas
    : ProjectType.decompression;
}

/** The query of the page: the type, and the work once it exists. */
export const decompressionQuery: (type: DecompressionType, workId: number | null) => string =
  videoQuery;

/** A work id from the address, or null. */
export { workIdOf } from '../../lib/video-address';

export const DEFAULT_DECOMPRESSION_DRAFT: DecompressionDraft = {
  title: '',
  text: '',
  settings: { aspect: '9:16', speed: 1, captionStyle: 'classic' },
};

/** The page's input, with the work it was last saved as (the base of the next save over it). */
export type KeptDecompressionDraft = WithSaved<DecompressionDraft>;

/** A change of the page's input, written to the session at once (`useDecompressionDraft`). */
export type DecompressionDraftUpdate = (
  change: (current: KeptDecompressionDraft) => KeptDecompressionDraft,
) => void;

/** The video's settings as the page edits them. */
export type DecompressionSettings = DecompressionDraft['settings'];

/** The remembered input of one variant (domestic or overseas). */
export function decompressionStore(overseas: boolean) {
  const name = decompressionDraftName(overseas);
  return {
    draft: (): KeptDecompressionDraft => {
      const stored = decompressionSession.get(name) as KeptDecompressionDraft | null;
      return {
        ...DEFAULT_DECOMPRESSION_DRAFT,
        ...stored,
        settings: { ...DEFAULT_DECOMPRESSION_DRAFT.settings, ...stored?.settings },
      };
    },
    setDraft: (draft: KeptDecompressionDraft) => decompressionSession.set(name, draft),
  };
}

/** A work's settings as the page edits them (the keys a decompression video has). */
export function draftSettingsOf(settings: VideoSettings): DecompressionDraft['settings'] {
  const { aspect, voiceId, speed, musicId, captionStyle, backgroundMaterialId } = settings;
  return {
    aspect,
    ...(voiceId !== undefined ? { voiceId } : {}),
    ...(speed !== undefined ? { speed } : {}),
    ...(musicId !== undefined ? { musicId } : {}),
    ...(captionStyle !== undefined ? { captionStyle } : {}),
    ...(backgroundMaterialId !== undefined ? { backgroundMaterialId } : {}),
  };
}
