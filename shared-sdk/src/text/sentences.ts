/**
 * Sentences and shots of a narration, written once for the server (the video pipelines) and the
 * pages (the caption page's first split), so a creator who changes nothing sees the shots the
 * server makes. Framework-free and synchronous.
 */

// A Latin full stop ends a sentence only before a space or the end (not in 3.5 or a.m.).
const SENTENCE_END = /([。！？!?；;…]+[”’」』）)]*|\.+["')]*(?=\s|$)|\n+)/;
const CLAUSE_BREAK = /([，,、：:]+)/;

/** Sentences longer than this are cut again at commas (one caption on screen at a time). */
export const MAX_SENTENCE_CHARS = 40;
/** Sentences per shot: more makes a picture stay too long, one per shot flickers. */
export const MAX_SENTENCES_PER_SHOT = 3;
/** A shot also ends before its caption grows past this many characters… */
export const MAX_SHOT_CHARS = 60;
/**
 * …unless that would cut a quotation: a line somebody says stays in one shot up to this length
 * (a longer speech is rare, and one picture held for half a minute is worse than a cut).
 */
export const MAX_QUOTED_SHOT_CHARS = 140;

/**
 * Splits narration into sentences at Chinese (and Western) sentence punctuation, keeping the
 * punctuation, and the closing quotation mark after it, with its sentence. A sentence longer
 * than `maxChars` is split again at commas.
 */
export function splitSentences(text: string, maxChars = MAX_SENTENCE_CHARS): string[] {
  const pieces = text.split(SENTENCE_END);
  const sentences: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const s = `${pieces[i] ?? ''}${(pieces[i + 1] ?? '').replace(/\n+/g, '')}`.trim();
    if (!s) continue;
    if (s.length <= maxChars) {
      sentences.push(s);
      continue;
    }
    const clauses = s.split(CLAUSE_BREAK);
    let current = '';
    for (let j = 0; j < clauses.length; j += 2) {
      const clause = `${clauses[j] ?? ''}${clauses[j + 1] ?? ''}`;
      if (current && current.length + clause.length > maxChars) {
        sentences.push(current.trim());
        current = '';
      }
      current += clause;
    }
    if (current.trim()) sentences.push(current.trim());
  }
  return mergeStrayPunctuation(sentences.filter((s) => /[\p{L}\p{N}]/u.test(s) || isClosing(s)));
}

const OPENING = '“「『‘（(《';
const CLOSING = '”」』’）)》';
const isClosing = (s: string) => s.length > 0 && Array.from(s).every((c) => CLOSING.includes(c));

/**
 * A piece that is only closing marks belongs to the sentence before it, and an opening mark
 * left at the end of a sentence belongs to the next: no sentence starts with a closing mark or
 * ends with an opening one.
 */
function mergeStrayPunctuation(sentences: string[]): string[] {
  const out: string[] = [];
  let carry = '';
  for (const raw of sentences) {
    let s = carry + raw;
    carry = '';
    const lead = /^[”」』’）)》]+/.exec(s)?.[0] ?? '';
    if (lead && out.length > 0) {
      out[out.length - 1] += lead;
      s = s.slice(lead.length);
    }
    const tail = /[“「『‘（(《]+$/.exec(s)?.[0] ?? '';
    if (tail) {
      carry = tail;
      s = s.slice(0, -tail.length);
    }
    if (/[\p{L}\p{N}]/u.test(s)) out.push(s);
    else if (s && out.length > 0) out[out.length - 1] += s;
  }
  if (carry && out.length > 0) out[out.length - 1] += carry;
  return out;
}

/**
 * How deep inside quotations the text is after `text` (0: outside every quotation). Chinese
 * marks nest; a straight double quote toggles.
 */
export function quoteDepthAfter(text: string, start = 0): number {
  let depth = start;
  let straight = false;
  for (const ch of text) {
    if (ch === '"') straight = !straight;
    else if ('“「『'.includes(ch)) depth += 1;
    else if ('”」』'.includes(ch)) depth = Math.max(0, depth - 1);
  }
  return depth + (straight ? 1 : 0);
}

/**
 * Groups sentences into shots of 1 to 3 sentences, a shot ending before it passes 60
 * characters, but never inside a quotation: a shot never starts in the middle of a line
 * somebody says (up to MAX_QUOTED_SHOT_CHARS).
 */
export function groupSentences(sentences: readonly string[]): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let depth = 0;
  for (const sentence of sentences) {
    const chars = current.join('').length + sentence.length;
    const full = current.length >= MAX_SENTENCES_PER_SHOT || chars > MAX_SHOT_CHARS;
    const insideQuote = depth > 0 && chars <= MAX_QUOTED_SHOT_CHARS;
    if (current.length > 0 && full && !insideQuote) {
      groups.push(current);
      current = [];
    }
    current.push(sentence);
    depth = quoteDepthAfter(sentence, depth);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Shot captions of a text (the caption page's first split, the server's shots stage). */
export function splitIntoShots(text: string): string[] {
  return groupSentences(splitSentences(text)).map((group) => group.join(''));
}

export const QUOTE_MARKS = { opening: OPENING, closing: CLOSING } as const;
