import type { WordSplitter } from './lines';

/**
 * The words of a text as the platform's ICU dictionary cuts them (`Intl.Segmenter`, word
 * granularity, Chinese rules), every character kept: spaces and punctuation come back as
 * tokens of their own. Chromium, Firefox, Safari and Node all carry it, so a page lays lines
 * out without downloading a dictionary; the server keeps jieba (server/src/text/segmenter.ts),
 * which also knows the names it has never seen. The segmenter is made once, on first use.
 */
let segmenter: Intl.Segmenter | null = null;

export const intlWords: WordSplitter = (text) => {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
};
