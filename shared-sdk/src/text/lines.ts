/**
 * How running text becomes lines, the way Chinese short videos show them, written once for the
 * server (the burned captions, the SRT, the scrolling video's column) and the pages (the
 * scrolling video's preview), so the preview shows the lines the video will. Captions come one
 * short line at a time, broken first at clause punctuation, then between words, never inside a
 * word; no line starts with closing punctuation and none is a lone character. English
 * (overseas) captions break between words at about 42 characters.
 *
 * Chinese has no spaces: where the words are is the caller's `WordSplitter` (the server passes
 * jieba's cut, a page `intlWords` of words.ts). Framework-free and synchronous.
 */

/** The words of a text in order, punctuation and spaces as tokens of their own; together the whole text. */
export type WordSplitter = (text: string) => string[];

export type CaptionAspect = '9:16' | '16:9';

/**
 * Most CJK characters on one line (a Latin letter or digit counts half): 14 glyphs of the
 * phone-sized captions (the server's captions.ts captionMetrics, 67 px at 1080 wide) fill a
 * portrait frame between its margins.
 */
export const CJK_LINE_LIMIT: Record<CaptionAspect, number> = { '9:16': 14, '16:9': 24 };
/** Most characters on one line of English captions (the usual subtitle standard). */
export const LATIN_LINE_LIMIT = 42;

const HAN = /[\u3400-\u9FFF\uF900-\uFAFF]/;
// Full-width forms, CJK punctuation, curly quotes and the ellipsis take a full cell in a CJK font.
const WIDE = /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F\u2018-\u201D\u2014\u2026]/;
/** Marks that belong to the word before them: a line never starts with one. */
const CLOSING = /^[，。！？、；：”’」』）》〉】…—～,.!?;:)\]%·]+$/;
/** Marks that belong to the word after them: a line never ends with one. */
const OPENING = /^[“‘「『（《〈【([]+$/;
/** A unit that ends a clause: the preferred place for a line break. */
const CLAUSE_END = /[，。！？、；：…,.!?;:—～]["”’」』）)》]*$/;

/** Captions of a text without Chinese characters follow the English rules. */
export const isLatinCaption = (text: string): boolean => !HAN.test(text);

export function lineLimit(text: string, aspect: CaptionAspect): number {
  return isLatinCaption(text) ? LATIN_LINE_LIMIT : CJK_LINE_LIMIT[aspect];
}

/** The width of a line in the limit's units. */
export function lineWidth(text: string): number {
  if (isLatinCaption(text)) return Array.from(text).length;
  return Array.from(text).reduce((sum, ch) => sum + (WIDE.test(ch) ? 1 : 0.5), 0);
}

/** What is spoken of a line: its letters and digits (a Latin one counts half beside Chinese). */
export function spokenWeight(text: string): number {
  const latin = isLatinCaption(text);
  let weight = 0;
  for (const ch of text) {
    if (HAN.test(ch)) weight += 1;
    else if (/[\p{L}\p{N}]/u.test(ch)) weight += latin ? 1 : 0.5;
  }
  return weight;
}

interface Unit {
  text: string;
  /** A space before it in the text: kept inside a line, dropped at a break. */
  spaceBefore: boolean;
}

/** Words with their punctuation attached, so that no break can separate them. */
function unitsOf(text: string, words: WordSplitter): Unit[] {
  const tokens = isLatinCaption(text) ? text.split(/(\s+)/) : words(text);
  const units: Unit[] = [];
  let opening = '';
  let space = false;
  for (const token of tokens) {
    if (!token) continue;
    if (/^\s+$/.test(token)) {
      space = units.length > 0 || opening !== '';
      continue;
    }
    const last = units.at(-1);
    if (CLOSING.test(token) && last && !opening && !space) {
      last.text += token;
      continue;
    }
    if (OPENING.test(token)) {
      // An opening mark after a space keeps that space before the word it opens.
      if (!opening && space) opening = ' ';
      opening += token;
      space = false;
      continue;
    }
    const spaceBefore = space || opening.startsWith(' ');
    units.push({ text: opening.trimStart() + token, spaceBefore });
    opening = '';
    space = false;
  }
  if (opening.trim()) {
    const last = units.at(-1);
    if (last) last.text += opening.trim();
    else units.push({ text: opening.trim(), spaceBefore: false });
  }
  return units;
}

const join = (units: Unit[]): string =>
  units.map((unit, i) => (i > 0 && unit.spaceBefore ? ` ${unit.text}` : unit.text)).join('');

/** A single word wider than a line (a long Latin name, a URL): cut where it must be. */
function hardSplit(text: string, limit: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const ch of text) {
    if (line && lineWidth(line + ch) > limit) {
      out.push(line);
      line = '';
    }
    line += ch;
  }
  if (line) out.push(line);
  return out;
}

// Costs of the line layout: each line costs, a break between words costs more than one at a
// clause mark, lines of unequal length cost a little (so a long clause splits evenly), a very
// short line more and a lone character most.
const LINE = 30;
const RAGGED = 20;
const WORD_BREAK = 60;
/** A line that opens on a particle (了, 的, 吗…) reads as a broken-off tail. */
const PARTICLE_START = 30;
const PARTICLES = /^[了的着过吗呢吧啊呀么地得]/;
const LATIN_WORD_BREAK = 20;
const SHORT = 30;
const LONE = 1000;

interface Costs {
  /** Added to a break that is not at a clause mark. */
  wordBreak: number;
  latinWordBreak: number;
  /** Added to a line much shorter than the limit (not the last of a page's paragraph). */
  short: number;
}

/** Captions: one short line at a time, broken at clause marks where they can be. */
const CAPTION_COSTS: Costs = {
  wordBreak: WORD_BREAK,
  latinWordBreak: LATIN_WORD_BREAK,
  short: SHORT,
};
/** A page of text (the scrolling video): lines filled, a break between any two words. */
const PAGE_COSTS: Costs = { wordBreak: 4, latinWordBreak: 0, short: 0 };

/**
 * Lines within `limit` laid out with the fewest and best-placed breaks (dynamic programming
 * over the word units): never inside a word, no line starting with closing punctuation.
 */
function layout(text: string, limit: number, costs: Costs, words: WordSplitter): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  const latin = isLatinCaption(clean);
  const units = unitsOf(clean, words);
  const n = units.length;
  const totalSpoken = spokenWeight(clean);
  const best: number[] = [0, ...Array<number>(n).fill(Number.POSITIVE_INFINITY)];
  const from: number[] = Array<number>(n + 1).fill(0);
  for (let end = 1; end <= n; end++) {
    for (let start = end - 1; start >= 0; start--) {
      const line = join(units.slice(start, end));
      const width = lineWidth(line);
      if (width > limit && end - start > 1) break;
      let cost = LINE;
      const lastUnit = units[end - 1]?.text ?? '';
      if (end < n && !CLAUSE_END.test(lastUnit))
        cost += latin ? costs.latinWordBreak : costs.wordBreak;
      if (start > 0 && !latin && PARTICLES.test(units[start]?.text ?? '')) cost += PARTICLE_START;
      cost += ((limit - width) / limit) ** 2 * RAGGED;
      const short = limit / 3;
      if (width < short) cost += ((short - width) / short) ** 2 * costs.short;
      if (spokenWeight(line) <= 1 && totalSpoken > 1) cost += LONE;
      const total = (best[start] ?? 0) + cost;
      if (total < (best[end] ?? Number.POSITIVE_INFINITY)) {
        best[end] = total;
        from[end] = start;
      }
    }
  }
  const lines: string[] = [];
  for (let end = n; end > 0; end = from[end] ?? 0) {
    lines.unshift(join(units.slice(from[end], end)));
  }
  return lines
    .flatMap((line) => (lineWidth(line) > limit ? hardSplit(line, limit) : [line]))
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** The caption lines of one sentence, each within the limit of its language and aspect. */
export function captionLines(text: string, aspect: CaptionAspect, words: WordSplitter): string[] {
  return layout(text, lineLimit(text.trim(), aspect), CAPTION_COSTS, words);
}

/**
 * A paragraph of running text as lines of at most `limit` CJK cells (a Latin letter counts
 * half), broken between words like the captions, but filled as a page is: the scrolling
 * video's column. An English paragraph breaks at spaces, counted the same way.
 */
export function pageLines(text: string, limit: number, words: WordSplitter): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  // lineWidth counts an English text by letters: its page limit is in those units too.
  return layout(clean, isLatinCaption(clean) ? limit * 2 : limit, PAGE_COSTS, words);
}

export interface TimedLine {
  text: string;
  startMs: number;
  endMs: number;
}

/**
 * One cue per caption line, the sentence's time shared out by what each line speaks: the first
 * starts with the sentence's speech and the last ends with it.
 */
export function timedLines(
  cue: { text: string; startMs: number; endMs: number },
  aspect: CaptionAspect,
  words: WordSplitter,
): TimedLine[] {
  const lines = captionLines(cue.text, aspect, words);
  if (lines.length <= 1) return lines.map((text) => ({ ...cue, text }));
  const weights = lines.map((line) => Math.max(1, spokenWeight(line)));
  const sum = weights.reduce((a, b) => a + b, 0);
  const span = cue.endMs - cue.startMs;
  let at = 0;
  return lines.map((text, i) => {
    const startMs = cue.startMs + Math.round((at / sum) * span);
    at += weights[i] ?? 0;
    const endMs = i === lines.length - 1 ? cue.endMs : cue.startMs + Math.round((at / sum) * span);
    return { text, startMs, endMs };
  });
}

/**
 * The scrolling video's column (type 2), as shares of the frame width so a small render (or the
 * page's preview) looks like the real one: `lineLimit` CJK cells a line, in glyphs of
 * `fontShare` of the width (13 × 0.062 fits the portrait column), lines `lineHeight` ems apart,
 * the line being spoken `readingBand` down the frame, above the usual caption area.
 */
export const SCROLL_COLUMN = {
  lineLimit: { '9:16': 13, '16:9': 26 },
  fontShare: { '9:16': 0.062, '16:9': 0.034 },
  widthShare: 0.88,
  lineHeight: 1.7,
  readingBand: 0.4,
} as const satisfies {
  lineLimit: Record<CaptionAspect, number>;
  fontShare: Record<CaptionAspect, number>;
  widthShare: number;
  lineHeight: number;
  readingBand: number;
};

/** The column's lines of a text: each paragraph laid out as a page, a blank line between paragraphs. */
export function scrollLines(text: string, aspect: CaptionAspect, words: WordSplitter): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    if (lines.length > 0) lines.push('');
    lines.push(...pageLines(paragraph, SCROLL_COLUMN.lineLimit[aspect], words));
  }
  return lines;
}
