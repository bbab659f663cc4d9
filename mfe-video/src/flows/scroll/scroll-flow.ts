import { ProjectType } from '@kol/shared-sdk';
import type { WithSaved } from '../../flow-kit/work-edits';
import { scrollSession, type ScrollDraft } from './draft';

/**
 * The scrolling video's (type 2) flow state: one page (text, background, voice, speed, music),
 * then the shared production and video pages. The page's state lives in `KOL_SCROLL_DRAFT` so a
 * reload loses nothing; the work, once made, travels in the address (`?workId=12`).
 */

export const SCROLL_TYPE = ProjectType.scroll;

/** The server lays the text out as one picture of at most 30 000 px; this keeps well inside it. */
export const MAX_SCROLL_TEXT_CHARS = 10_000;

export type ScrollSettings = ScrollDraft['settings'];

/** The draft with the work it was last read or saved as (the base of the next save over it). */
export type KeptScrollDraft = WithSaved<ScrollDraft>;

export const DEFAULT_SCROLL_SETTINGS: ScrollSettings = { aspect: '9:16', speed: 1 };

export function emptyScrollDraft(settings: ScrollSettings = DEFAULT_SCROLL_SETTINGS): ScrollDraft {
  return { workId: null, title: '', text: '', settings };
}

export const scrollStore = {
  draft: (): KeptScrollDraft | null => scrollSession.get('scrollDraft') as KeptScrollDraft | null,
  setDraft: (draft: KeptScrollDraft) => scrollSession.set('scrollDraft', draft),
};

/**
 * The draft the page opens with, or null when the work in the address must be read from the
 * server (a fresh tab, or the session holds another scrolling video). Without a work it is a
 * new video: an unsaved draft is taken up again, a rendered one leaves its settings behind.
 */
export function scrollDraftFor(
  workId: number | null,
  stored: KeptScrollDraft | null,
): KeptScrollDraft | null {
  if (workId === null) {
    if (stored && stored.workId === null) return stored;
    return emptyScrollDraft(
      stored ? { ...DEFAULT_SCROLL_SETTINGS, ...stored.settings } : undefined,
    );
  }
  return stored && stored.workId === workId ? stored : null;
}

/** Why a text cannot scroll, in Chinese, or null when it can. */
export function scrollTextProblem(text: string): string | null {
  if (!text.trim()) return '请先填写滚屏文案';
  if (text.length > MAX_SCROLL_TEXT_CHARS) {
    return `滚屏文案不能超过 ${MAX_SCROLL_TEXT_CHARS} 字（当前 ${text.length} 字），请删减后再生成`;
  }
  if (!/[\p{L}\p{N}]/u.test(text)) return '滚屏文案中没有可朗读的文字，请填写正文';
  return null;
}

/** A title from the text when the creator gives none: its first line, at most 20 characters. */
export function scrollTitleOf(text: string): string {
  const first = text.trim().split('\n')[0]?.trim() ?? '';
  return first.length > 20 ? `${first.slice(0, 20)}…` : first || '未命名滚屏视频';
}
