import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  CJK_LINE_LIMIT,
  LATIN_LINE_LIMIT,
  lineWidth,
  spokenWeight,
  type CaptionAspect,
  type TimedLine,
  type WordSplitter,
} from '../text/lines';

/**
 * The line rules of text/lines.ts as one suite, run over a corpus of web-novel sentences with
 * each word splitter the product uses: the SDK's own tests run it with `intlWords` (the pages),
 * the server's with jieba (the render), so both keep the same promises.
 */
export interface LineRulesBinding {
  /** The splitter the rules are bound to; word boundaries are checked against its own cut. */
  words: WordSplitter;
  captionLines(text: string, aspect: CaptionAspect): string[];
  pageLines(text: string, limit: number): string[];
  timedLines(
    cue: { text: string; startMs: number; endMs: number },
    aspect: CaptionAspect,
  ): TimedLine[];
}

export const CAPTION_CORPUS: readonly string[] = readFileSync(
  path.join(__dirname, 'caption-corpus.txt'),
  'utf8',
)
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

const ENGLISH = [
  'She opened the old wooden door of the post office, and a letter was already waiting on the counter.',
  'The letter was addressed to her, and it was signed by herself, twenty years from now.',
  '"Where have you been?" he asked, without looking up from his phone.',
  'Nobody expected the quiet boy from the village to become the greatest swordsman of his age.',
  'It was 3:47 a.m. when the phone rang for the third time.',
  'He paid $3.5 million for the land, and everyone said he had lost his mind.',
  'Run!',
  'I waited for you for three whole years.',
  'The CEO of the company was only twenty years old, and nobody knew where he came from.',
  'When the snow finally stopped, the footprints leading to the door had disappeared completely.',
  'She signed the divorce papers without a word, then walked out into the rain.',
  'Supercalifragilisticexpialidocious-and-then-some-more-letters-than-a-line-can-hold was written on the wall.',
  'The palace lights went out one by one, and only the moon remained.',
  '"Don\'t go," she whispered. "Please, just this once, stay with me until the morning comes."',
  'Ten years later, they met again at the airport, and neither of them said a word.',
  'In a world where only the strong survive, she chose to become stronger than anyone.',
  'The last page of the diary had been torn out.',
  'He woke up in the ruins, and the city around him was completely silent.',
  'They promised to meet again on this beach, ten years from that day.',
  'Her mother left her only one thing: a jade pendant with a name carved on the back.',
];

const ASPECTS: CaptionAspect[] = ['9:16', '16:9'];
const STARTS_CLOSED = /^[，。！？、；：”’」』）》〉】…—,.!?;:)]/u;
const ENDS_OPEN = /[“‘「『（《〈【(]$/u;
const DROPPED = /\s/u;

/** Offsets in `text` where the splitter's own segmentation of the whole sentence puts a boundary. */
function wordBoundaries(text: string, words: WordSplitter): Set<number> {
  const out = new Set<number>([0]);
  let at = 0;
  for (const word of words(text)) {
    at += Array.from(word).length;
    out.add(at);
  }
  return out;
}

/**
 * Walks the lines over the sentence: each line is the next stretch of it (a break drops only
 * spaces), so the offsets where lines end are the breaks. Fails when a line is not the text that follows.
 */
function breaksOf(text: string, lines: string[]): number[] {
  const chars = Array.from(text);
  const breaks: number[] = [];
  let at = 0;
  for (const line of lines) {
    while (at < chars.length && /\s/.test(chars[at] ?? '')) at++;
    const piece = Array.from(line);
    expect(chars.slice(at, at + piece.length).join('')).toBe(line);
    at += piece.length;
    breaks.push(at);
    while (at < chars.length && DROPPED.test(chars[at] ?? '')) at++;
  }
  // Nothing but dropped marks after the last line: no text went missing.
  expect(chars.slice(at).join('').trim()).toBe('');
  return breaks.slice(0, -1);
}

/** Runs the rules' suite with one splitter's binding of them. */
export function describeLineRules({
  words,
  captionLines,
  pageLines,
  timedLines,
}: LineRulesBinding): void {
  const CORPUS = CAPTION_CORPUS;
  describe('caption lines over a corpus of web-novel sentences', () => {
    it('holds at least 200 sentences of narration, dialogue, names, numbers and mixed Latin', () => {
      expect(CORPUS.length).toBeGreaterThanOrEqual(200);
      expect(CORPUS.filter((s) => s.includes('“')).length).toBeGreaterThan(30);
      expect(CORPUS.filter((s) => /\d/.test(s)).length).toBeGreaterThanOrEqual(20);
      expect(CORPUS.filter((s) => /[A-Za-z]/.test(s)).length).toBeGreaterThanOrEqual(20);
    });

    for (const aspect of ASPECTS) {
      it(`in ${aspect}: no break inside a word, no line over ${CJK_LINE_LIMIT[aspect]}, no orphan punctuation, no lone character`, () => {
        for (const sentence of CORPUS) {
          const lines = captionLines(sentence, aspect);
          expect(lines.length).toBeGreaterThan(0);
          const boundaries = wordBoundaries(sentence, words);
          for (const at of breaksOf(sentence, lines)) {
            if (!boundaries.has(at))
              throw new Error(
                `「${sentence}」 is broken inside a word at ${at}: ${lines.join(' / ')}`,
              );
          }
          for (const line of lines) {
            if (lineWidth(line) > CJK_LINE_LIMIT[aspect])
              throw new Error(`「${line}」 is over the limit`);
            expect(line).not.toMatch(STARTS_CLOSED);
            expect(line).not.toMatch(ENDS_OPEN);
            if (spokenWeight(sentence) > 1 && spokenWeight(line) <= 1) {
              throw new Error(`「${line}」 is a lone character of 「${sentence}」`);
            }
          }
        }
      });
    }

    it('breaks at clause punctuation first: a sentence of two clauses that fit is two lines, one per clause', () => {
      expect(captionLines('苏晚推开邮局的木门，柜台上已经放着一封信。', '9:16')).toEqual([
        '苏晚推开邮局的木门，',
        '柜台上已经放着一封信。',
      ]);
      expect(captionLines('收件人写着她的名字，落款是二十年后的自己。', '9:16')).toEqual([
        '收件人写着她的名字，',
        '落款是二十年后的自己。',
      ]);
      // A short sentence stays one line, its question mark kept.
      expect(captionLines('“你到底是谁？”', '9:16')).toEqual(['“你到底是谁？”']);
    });

    it('shares a sentence’s time out by what each line speaks: the cues start and end with the speech', () => {
      for (const aspect of ASPECTS) {
        for (const sentence of CORPUS) {
          const cue = { text: sentence, startMs: 1000, endMs: 1000 + spokenWeight(sentence) * 240 };
          const timed = timedLines(cue, aspect);
          expect(timed.map((t) => t.text)).toEqual(captionLines(sentence, aspect));
          expect(timed[0]?.startMs).toBe(cue.startMs);
          expect(timed.at(-1)?.endMs).toBe(cue.endMs);
          timed.forEach((line, i) => {
            expect(line.endMs).toBeGreaterThan(line.startMs);
            if (i > 0) expect(line.startMs).toBe(timed[i - 1]?.endMs);
          });
        }
      }
      // In proportion: 4 and 12 spoken characters of a 1.6 s sentence.
      const timed = timedLines(
        { text: '他看着她，一言不发地转身离开了房间。', startMs: 0, endMs: 1600 },
        '9:16',
      );
      expect(timed.map((t) => [t.text, t.startMs, t.endMs])).toEqual([
        ['他看着她，', 0, 400],
        ['一言不发地转身离开了房间。', 400, 1600],
      ]);
    });

    it('a width-only wrapping fails the same check (the check can fail)', () => {
      const sentence = '苏晚推开邮局的木门，柜台上已经放着一封信。';
      const chars = Array.from(sentence);
      const naive = [0, 14].map((at) => chars.slice(at, at + 14).join(''));
      expect(() => {
        const boundaries = wordBoundaries(sentence, words);
        for (const at of breaksOf(sentence, naive)) {
          if (!boundaries.has(at)) throw new Error(`broken inside a word at ${at}`);
        }
      }).toThrow('broken inside a word');
    });
  });

  describe('the scrolling video’s page lines', () => {
    it('break between words, never inside one, within the column over the whole corpus', () => {
      for (const limit of [13, 26]) {
        for (const sentence of CORPUS) {
          const lines = pageLines(sentence, limit);
          const boundaries = wordBoundaries(sentence, words);
          for (const at of breaksOf(sentence, lines)) {
            if (!boundaries.has(at))
              throw new Error(`「${sentence}」 is broken inside a word: ${lines.join(' / ')}`);
          }
          for (const line of lines) {
            if (lineWidth(line) > limit) throw new Error(`「${line}」 is over ${limit}`);
            expect(line).not.toMatch(STARTS_CLOSED);
          }
        }
      }
    });
  });

  describe('English captions', () => {
    it(`break between words at ${LATIN_LINE_LIMIT} characters, never inside one, no line starting with punctuation`, () => {
      for (const aspect of ASPECTS) {
        for (const sentence of ENGLISH) {
          const lines = captionLines(sentence, aspect);
          const wordsOf = (s: string) => s.split(/\s+/).filter(Boolean);
          // A word wider than a line is the one thing cut, and only at the limit.
          const giant = wordsOf(sentence).some((w) => w.length > LATIN_LINE_LIMIT);
          if (!giant) expect(lines.flatMap(wordsOf)).toEqual(wordsOf(sentence));
          expect(lines.join('').replace(/\s+/g, '')).toBe(sentence.replace(/\s+/g, ''));
          for (const line of lines) {
            expect(line.length).toBeLessThanOrEqual(LATIN_LINE_LIMIT);
            expect(line).not.toMatch(STARTS_CLOSED);
          }
        }
      }
    });
  });
}
