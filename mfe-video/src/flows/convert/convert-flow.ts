import { ProjectType } from '@kol/shared-sdk';
import type { WithSaved } from '../../flow-kit/work-edits';
import { convertSession, type ConvertDraft } from './draft';

/**
 * The reverse video's (type 3) flow state, kept in the session value `KOL_CONVERT_DRAFT`; the
 * step travels in the address (`/convertConfig?step=script`), so a reload on any step lands on
 * it with everything typed. The work is made when the script is done (leaving 文案与配音) and
 * updated at render; from then on it is in the address too (`&workId=12`), so a fresh tab or
 * the works list opens it again from the server.
 */

export const CONVERT_TYPE = ProjectType.convert;

export const CONVERT_STEPS = ['source', 'script', 'render'] as const;
export type ConvertStep = (typeof CONVERT_STEPS)[number];

export function stepOf(value: string | null): ConvertStep {
  return (CONVERT_STEPS as readonly string[]).includes(value ?? '')
    ? (value as ConvertStep)
    : 'source';
}

/** The draft with the work it was last saved as (the base of the next save over it). */
export type KeptConvertDraft = WithSaved<ConvertDraft>;

/** A change of the draft, written to the session at once (`useConvertDraft`). */
export type ConvertDraftUpdate = (change: (current: KeptConvertDraft) => KeptConvertDraft) => void;

/** What the reverse video keeps of the video's settings. */
export type ConvertSettings = ConvertDraft['settings'];

export function emptyConvertDraft(): ConvertDraft {
  return {
    workId: null,
    title: '',
    source: null,
    extracted: null,
    script: '',
    settings: { aspect: '9:16', speed: 1, dedup: {} },
  };
}

export function readConvertDraft(): KeptConvertDraft | null {
  const stored = convertSession.get('convertDraft') as KeptConvertDraft | null;
  return stored && typeof stored === 'object' ? { ...emptyConvertDraft(), ...stored } : null;
}

/**
 * The draft the page opens with, or null when the work in the address must be read from the
 * server (a fresh tab, or the session holds another reverse video). Without a work it is a new
 * video: an unsaved draft is taken up again, one already saved as a work is left to that work.
 */
export function convertDraftFor(
  workId: number | null,
  stored: KeptConvertDraft | null,
): KeptConvertDraft | null {
  if (workId === null) return stored && stored.workId === null ? stored : emptyConvertDraft();
  return stored && stored.workId === workId ? stored : null;
}

/** The step and the work in the address: `/convertConfig?step=script&workId=12`. */
export function convertPath(step: ConvertStep, workId: number | null): string {
  const params = new URLSearchParams({ step });
  if (workId !== null) params.set('workId', String(workId));
  return `/convertConfig?${params.toString()}`;
}

/** The work id of `?workId=`, or null. */
export { workIdOf } from '../../lib/video-address';

export function writeConvertDraft(draft: KeptConvertDraft): void {
  convertSession.set('convertDraft', draft);
}

/** The script's longest form the server keeps as a work's text. */
export const MAX_SCRIPT_CHARS = 20_000;

/** Why the script cannot be rendered, in Chinese; null when it can. */
export function scriptProblem(script: string): string | null {
  if (!/[\p{L}\p{N}]/u.test(script)) return '「文案」为空：请填写要配音的脚本，或从视频中提取';
  if (script.length > MAX_SCRIPT_CHARS) {
    return `「文案」有 ${script.length} 字，超过 ${MAX_SCRIPT_CHARS} 字的上限，请删减`;
  }
  return null;
}

/** The title of the work: the user's, else the source file's name without its extension. */
export function convertTitle(draft: ConvertDraft): string {
  const own = draft.title.trim();
  if (own) return own.slice(0, 100);
  const name = draft.source?.name.replace(/\.[^.]+$/, '').trim();
  return (name || '反推视频').slice(0, 100);
}
