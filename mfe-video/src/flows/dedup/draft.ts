import { sessionValues, type VideoSettings } from '@kol/shared-sdk';
import type { SourceClip } from '../../flow-kit/source-video/source-file';

/** The de-dup settings page (`KOL_DEDUP_EDIT`): the clip previewed and the presets being edited. */
export interface DedupEdit {
  clip: SourceClip | null;
  /** Null: the presets the user saved on the server. */
  presets: NonNullable<VideoSettings['dedup']> | null;
  aspect: VideoSettings['aspect'];
}

/**
 * One reverse video's de-dup page (`/video/cutDuplicates/:id`, `KOL_DEDUP_CLIP`): the presets
 * being tried on it, which reach the work only when it is rendered again.
 */
export interface DedupClip {
  workId: number;
  presets: NonNullable<VideoSettings['dedup']>;
}

/** The de-dup pages' session values: this remote's own, not the SDK's. */
export const dedupSession = sessionValues<{ dedupEdit: DedupEdit; dedupClip: DedupClip }>();
