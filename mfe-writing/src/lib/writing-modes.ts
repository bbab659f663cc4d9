import type { WritingMode } from '@kol/shared-sdk';

export const MODE_LABELS: Record<WritingMode, string> = {
  write: '写作',
  continue: '续写',
  rewrite: '改写',
  expand: '扩写',
  polish: '润色',
  titles: '标题建议',
};

/** Modes whose source is the text in the editor, not the prompt. */
export const MODES_ON_TEXT: readonly WritingMode[] = ['continue', 'rewrite', 'expand', 'polish'];

export const GENRE_OPTIONS = ['都市', '玄幻', '仙侠', '言情', '悬疑', '科幻', '历史', '校园'];
