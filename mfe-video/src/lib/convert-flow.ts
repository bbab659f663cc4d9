import { ProjectType, sessionStore, type ConvertDraft } from '@kol/shared-sdk';

/**
 * The reverse video's (type 3) flow state, kept in the session value `KOL_CONVERT_DRAFT`; the
 * step travels in the address (`/convertConfig?step=script`), so a reload on any step lands on
 * it with everything typed. The work is made (or updated, `workId`) when the video is rendered.
 */

export const CONVERT_TYPE = ProjectType.convert;

export const CONVERT_STEPS = ['source', 'script', 'render'] as const;
export type ConvertStep = (typeof CONVERT_STEPS)[number];

export function stepOf(value: string | null): ConvertStep {
  return (CONVERT_STEPS as readonly string[]).includes(value ?? '')
    ? (value as ConvertStep)
    : 'source';
}

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

export function readConvertDraft(): ConvertDraft {
  const stored = sessionStore.get('convertDraft');
  return stored && typeof stored === 'object'
    ? { ...emptyConvertDraft(), ...stored }
    : emptyConvertDraft();
}

export function writeConvertDraft(draft: ConvertDraft): void {
  sessionStore.set('convertDraft', draft);
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
