import { sessionValues, type VideoSettings } from '@kol/shared-sdk';
import type { SourceClip } from '../../flow-kit/source-video/source-file';

/**
 * The reverse video's flow state (`KOL_CONVERT_DRAFT`): the uploaded source, the script as the
 * user edits it, and the settings, kept until the work is made at render time so a reload on
 * any step loses nothing.
 */
export interface ConvertDraft {
  workId: number | null;
  title: string;
  source: SourceClip | null;
  /** The script read from the source (subtitle track or transcription), before any edit. */
  extracted: { script: string; from: 'subtitles' | 'transcription' | 'none'; note: string } | null;
  script: string;
  settings: Pick<VideoSettings, 'aspect' | 'voiceId' | 'speed' | 'dedup'>;
}

/** The reverse video's session value (`KOL_CONVERT_DRAFT`): this remote's own, not the SDK's. */
export const convertSession = sessionValues<{ convertDraft: ConvertDraft }>();
