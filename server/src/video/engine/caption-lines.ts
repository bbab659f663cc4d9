import {
  captionLines as linesOf,
  pageLines as pageOf,
  scrollLines as columnOf,
  timedLines as timedOf,
  type CaptionAspect,
  type TimedLine,
} from '@kol/shared-sdk/text';
import { words } from '../../text/segmenter';

/**
 * The caption and page line rules (the SDK's text/lines.ts, which the scrolling video's preview
 * uses too) bound to the server's jieba: the SRT, the burned captions and the scrolling column
 * all come from here, so they always agree, and break between jieba's words.
 */

export {
  CJK_LINE_LIMIT,
  LATIN_LINE_LIMIT,
  SCROLL_COLUMN,
  isLatinCaption,
  lineLimit,
  lineWidth,
  spokenWeight,
  type CaptionAspect,
  type TimedLine,
} from '@kol/shared-sdk/text';

/** The caption lines of one sentence, each within the limit of its language and aspect. */
export const captionLines = (text: string, aspect: CaptionAspect): string[] =>
  linesOf(text, aspect, words);

/** A paragraph as lines of at most `limit` CJK cells, filled as a page is. */
export const pageLines = (text: string, limit: number): string[] => pageOf(text, limit, words);

/** One cue per caption line, the sentence's time shared out by what each line speaks. */
export const timedLines = (
  cue: { text: string; startMs: number; endMs: number },
  aspect: CaptionAspect,
): TimedLine[] => timedOf(cue, aspect, words);

/** The scrolling video's column: each paragraph as page lines, a blank line between. */
export const scrollLines = (text: string, aspect: CaptionAspect): string[] =>
  columnOf(text, aspect, words);
