import { describe, expect, it } from '@jest/globals';
import { describeLineRules } from '../../testing/line-rules';
import {
  captionLines,
  lineWidth,
  pageLines,
  scrollLines,
  SCROLL_COLUMN,
  timedLines,
  type WordSplitter,
} from '../lines';
import { intlWords } from '../words';

// The rules bound to the pages' splitter: the same suite the server runs with jieba.
describeLineRules({
  words: intlWords,
  captionLines: (text, aspect) => captionLines(text, aspect, intlWords),
  pageLines: (text, limit) => pageLines(text, limit, intlWords),
  timedLines: (cue, aspect) => timedLines(cue, aspect, intlWords),
});

/** One unit per character: the same rules with a splitter that knows no words. */
const chars: WordSplitter = (text) => Array.from(text);

/** The words of `words` that a break of `lines` (laid over `text`, no spaces) falls inside. */
function cutWords(text: string, lines: string[], words: string[]): string[] {
  expect(lines.join('')).toBe(text);
  const breaks = lines.slice(0, -1).map((_, i) => lines.slice(0, i + 1).join('').length);
  return words.filter((word) => {
    const at = text.indexOf(word);
    return breaks.some((b) => b > at && b < at + word.length);
  });
}

const ISSUE = [
  { text: '他走进了镇上的客栈', words: ['镇上', '客栈'] },
  { text: '所有的狗都叫了起来', words: ['所有'] },
];

describe('intlWords (Intl.Segmenter, the pages’ splitter)', () => {
  it('gives every character back, words, spaces and punctuation as tokens', () => {
    expect(intlWords('他走进了镇上的客栈')).toEqual(expect.arrayContaining(['镇上', '客栈']));
    expect(intlWords('所有的狗都叫了起来')).toContain('所有');
    const mixed = '“你到底是谁？” he said, AI时代';
    expect(intlWords(mixed).join('')).toBe(mixed);
  });

  it('keeps 镇上, 客栈 and 所有 whole at every limit that forces a break, where a split by characters cuts them', () => {
    for (const { text, words } of ISSUE) {
      const cutByChars = new Set<string>();
      for (let limit = 2; limit < lineWidth(text); limit++) {
        const lines = pageLines(text, limit, intlWords);
        expect(lines.length).toBeGreaterThan(1);
        expect(cutWords(text, lines, words)).toEqual([]);
        for (const word of cutWords(text, pageLines(text, limit, chars), words))
          cutByChars.add(word);
      }
      // The check can fail: the same rules without words break inside them (「镇/上的客栈」, 「所/有的狗」).
      expect(cutByChars.size).toBeGreaterThan(0);
    }
    // And a width-only wrap at 8 cells ends inside 客栈.
    const naive = ['他走进了镇上的客', '栈'];
    expect(cutWords('他走进了镇上的客栈', naive, ['客栈'])).toEqual(['客栈']);
  });
});

describe('the scrolling column', () => {
  const TEXT =
    '傍晚时分，他才终于找到了镇上的客栈，要了一间上房。\n那天夜里风很大，村子里头所有的狗都在狂吠，叫个不停。';

  it('lays each paragraph out within the aspect’s limit, a blank line between, as the render does with jieba', () => {
    // The lines the server's scroll test expects of its jieba layout: the pages see the same.
    expect(scrollLines(TEXT, '9:16', intlWords)).toEqual([
      '傍晚时分，他才终于找到了',
      '镇上的客栈，要了一间上房。',
      '',
      '那天夜里风很大，',
      '村子里头所有的狗都在狂吠，',
      '叫个不停。',
    ]);
    for (const aspect of ['9:16', '16:9'] as const) {
      for (const line of scrollLines(TEXT, aspect, intlWords))
        expect(lineWidth(line)).toBeLessThanOrEqual(SCROLL_COLUMN.lineLimit[aspect]);
    }
    expect(scrollLines(TEXT, '16:9', intlWords)).toEqual([
      '傍晚时分，他才终于找到了镇上的客栈，要了一间上房。',
      '',
      '那天夜里风很大，村子里头所有的狗都在狂吠，叫个不停。',
    ]);
  });
});
