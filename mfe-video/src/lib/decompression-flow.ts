import {
  ProjectType,
  overseaVariant,
  sessionStore,
  type DecompressionDraft,
  type VideoSettings,
} from '@kol/shared-sdk';
import type { WithSaved } from './work-edits';

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
export function decompressionQuery(type: DecompressionType, workId: number | null): string {
  const params = new URLSearchParams({ videoType: String(type) });
  if (workId !== null) params.set('workId', String(workId));
  return `?${params.toString()}`;
}

/** A work id from the address, or null. */
export function workIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('workId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export const DEFAULT_DECOMPRESSION_DRAFT: DecompressionDraft = {
  title: '',
  text: '',
  settings: { aspect: '9:16', speed: 1, captionStyle: 'classic' },
};

/** The page's input, with the work it was last saved as (the base of the next save over it). */
export type KeptDecompressionDraft = WithSaved<DecompressionDraft>;

/** The remembered input of one variant (domestic or overseas). */
export function decompressionStore(overseas: boolean) {
  const name = overseaVariant('decompressionDraft', overseas) as 'decompressionDraft';
  return {
    draft: (): KeptDecompressionDraft => {
      const stored = sessionStore.get(name) as KeptDecompressionDraft | null;
      return {
        ...DEFAULT_DECOMPRESSION_DRAFT,
        ...stored,
        settings: { ...DEFAULT_DECOMPRESSION_DRAFT.settings, ...stored?.settings },
      };
    },
    setDraft: (draft: KeptDecompressionDraft) => sessionStore.set(name, draft),
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
