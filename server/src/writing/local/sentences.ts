import { segmenter } from '../../text/segmenter';
import { wording, type ToneProfile } from './templates';

/**
 * Whole sentences for the local engine: the checks of what it writes (issue 30: a dialogue line
 * that lost its quotation marks after 「林默接过食盒，摇头道。」, a stray 「火光中。」) and the
 * quote-aware cut of a long sentence into spoken-length lines. The engine writes copy out of the
 * source's own sentences, so each one it emits must stand alone: ended by sentence punctuation,
 * its quotation marks balanced, a speech verb never without the words it introduces, and no
 * clause cut off a longer sentence without a predicate of its own.
 */

const OPENING = '“「『';
const CLOSING = '”」』';
const SENTENCE_ENDS = '。！？!?…';
/** What may end a line the engine writes: sentence punctuation, then closing marks. */
const ENDED = /[。！？!?…～~][”」』’"）)]*$|[”」』]$/;
/** Clause punctuation a long sentence may be cut at. */
const CLAUSE = /[，,；;：:]/;

/** A short clause under this many Chinese characters needs a verb to stand as a line. */
export const FRAGMENT_MIN_CHARS = 6;

const han = (text: string) => text.match(/\p{Script=Han}/gu)?.length ?? 0;

/** Whether every quotation mark opened in the text is closed, in order. */
export function balancedQuotes(text: string): boolean {
  const stack: string[] = [];
  for (const c of text) {
    const open = OPENING.indexOf(c);
    if (open >= 0) stack.push(CLOSING[open] ?? '');
    else if (CLOSING.includes(c) && stack.pop() !== c) return false;
  }
  // A straight double quote has no direction: an even count is the most that can be checked.
  return stack.length === 0 && (text.match(/"/g)?.length ?? 0) % 2 === 0;
}

/**
 * A speech verb that introduces words which are not there: 「摇头道。」, 「，低声说。」 at the end of
 * a sentence, or a sentence that ends with 道：/ 说： and no quotation after it. 知道, 味道, 一道
 * and 说明 are words, not speech verbs: only 道 after a verb-like character or phrase and 说 / 问
 * closing a short clause after a comma (an attribution: 老周挠着头说) count; 没有多问 says nothing
 * is said.
 */
const ORPHAN_SPEECH =
  /(?:(?:[笑喝叹说问答骂哼吼怒叫嚷吟念斥劝喊嗔颤啐称赞]|摇头|点头|冷笑|苦笑|低声|沉声|轻声|淡淡|一声)道|[，,][^，,。！？!?“”「」没不未多再别]{0,6}(?:说|问))[。：:]$/;

export function orphanSpeechVerb(sentence: string): boolean {
  return ORPHAN_SPEECH.test(sentence.replace(/[\s]+$/g, ''));
}

/** Whether a clause has a predicate: a verb or adjective as jieba tags it. */
export function hasPredicate(clause: string): boolean {
  const text = clause.replace(/[\p{P}\s]/gu, '');
  if (!text) return false;
  return segmenter()
    .jieba.tag(text, true)
    .some(({ tag }) => tag.startsWith('v') || tag.startsWith('a') || tag === 'l' || tag === 'i');
}

/**
 * A clause cut from a longer sentence that cannot stand alone: short and without a predicate
 * (火光中，三更时分，当天夜里). Words inside a quotation are speech and may be as short as people
 * speak (“不知？”).
 */
export function isFragment(clause: string): boolean {
  const outside = clause.replace(/[“「『][^”」』]*[”」』]/g, '');
  if (outside !== clause && han(outside) === 0) return false;
  return han(clause) < FRAGMENT_MIN_CHARS && !hasPredicate(clause);
}

/** Whether a sentence taken from the source can be put in copy as it is. */
export function isWholeSentence(sentence: string): boolean {
  const text = sentence.trim();
  return (
    balancedQuotes(text) &&
    ENDED.test(text) &&
    !orphanSpeechVerb(text) &&
    !isFragment(text) &&
    !/^[”」』，,。；;：:！？!?、）)]/.test(text)
  );
}

/** The sentences of a line as a reader sees them (a quotation with several stays whole). */
export function sentencesOf(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  const chars = Array.from(line);
  chars.forEach((c, i) => {
    current += c;
    if (OPENING.includes(c)) depth++;
    else if (CLOSING.includes(c)) depth = Math.max(0, depth - 1);
    const next = chars[i + 1] ?? '';
    const ends = SENTENCE_ENDS.includes(c) || (CLOSING.includes(c) && depth === 0);
    if (
      depth === 0 &&
      ends &&
      !SENTENCE_ENDS.includes(next) &&
      !CLOSING.includes(next) &&
      !'）)'.includes(next || '_') &&
      // A quotation followed by its attribution (“……”他说。) is one sentence with it.
      !(CLOSING.includes(c) && next && !OPENING.includes(next))
    ) {
      out.push(current.trim());
      current = '';
    }
  });
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

const PROFILES: ToneProfile[] = ['suspense', 'passion', 'warm', 'humor', 'neutral'];
const LEAD_INS = PROFILES.flatMap((p) => wording(p).leadIns);

export type Defect = 'unbalanced-quote' | 'orphan-speech-verb' | 'fragment' | 'unpunctuated';

export interface Found {
  defect: Defect;
  sentence: string;
}

/**
 * The defects of a text the engine wrote, sentence by sentence (each line on its own). A line
 * ending with a colon leads into the next line (「先看这一段：」) and a numbered title list has no
 * sentences: `titles` skips the punctuation check for such lines.
 */
export function defects(text: string, options: { titles?: boolean } = {}): Found[] {
  const found: Found[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line) continue;
    if (options.titles && /^(?:\d+\.\s*《[^》]+》|.*：)$/.test(line)) continue;
    if (!balancedQuotes(line)) found.push({ defect: 'unbalanced-quote', sentence: line });
    const sentences = sentencesOf(line);
    sentences.forEach((sentence, i) => {
      const last = i === sentences.length - 1;
      if (orphanSpeechVerb(sentence)) found.push({ defect: 'orphan-speech-verb', sentence });
      else if (!ENDED.test(sentence) && !(last && /[：:]$/.test(sentence) && i === 0)) {
        found.push({ defect: 'unpunctuated', sentence });
      }
      // A lead-in such as 「故事是这样的：」 is the engine's own frame before the excerpt.
      const leadIn = LEAD_INS.find((l) => sentence.startsWith(l) && sentence.length > l.length);
      if (isFragment(leadIn ? sentence.slice(leadIn.length) : sentence)) {
        found.push({ defect: 'fragment', sentence });
      }
    });
  }
  return found;
}

interface Unit {
  text: string;
  /**
   * A clause that introduces words (a quotation, or reported speech: 电视新闻里说，…), bound to
   * what follows it.
   */
  introducesQuote: boolean;
}

const INTRODUCES = /(?:说|道|问|答|喊|叫|嚷|骂|吼|想|写着|写道|告诉[他她我你]|听见)[，,：:]$/;

/** The clauses of a sentence, cut at clause punctuation outside quotations only. */
function clauses(sentence: string): Unit[] {
  const units: Unit[] = [];
  let current = '';
  let depth = 0;
  for (const c of sentence) {
    current += c;
    if (OPENING.includes(c)) depth++;
    else if (CLOSING.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && CLAUSE.test(c)) {
      units.push({ text: current, introducesQuote: false });
      current = '';
    }
  }
  if (current) units.push({ text: current, introducesQuote: false });
  units.forEach((unit, i) => {
    const next = units[i + 1]?.text ?? '';
    unit.introducesQuote =
      (OPENING.includes(next[0] ?? '') && /[：:，,]$/.test(unit.text)) ||
      (next !== '' && INTRODUCES.test(unit.text));
  });
  return units.filter((u) => u.text.trim());
}

/**
 * A long sentence cut at clause punctuation into spoken-length lines, each a sentence of its
 * own. The cut never falls inside a quotation, never between a speech verb and the quotation it
 * introduces, and never leaves a clause without a predicate alone (火光中，): such clauses go
 * with their neighbour, so a line may run past `max` rather than be broken wrong.
 */
export function spokenLines(sentence: string, max = 18): string[] {
  const units = clauses(sentence.trim());
  // Groups that must stay together: a fragment or a quote's introduction joins the next unit.
  const groups: string[] = [];
  let carry = '';
  units.forEach((unit, i) => {
    const text = carry + unit.text;
    const isLast = i === units.length - 1;
    // A bare speech verb (摇头道：) also keeps the clause before it, which names the speaker.
    // Not when that makes a line past twice the length: the verb then starts its line.
    const before = groups[groups.length - 1] ?? '';
    if (
      unit.introducesQuote &&
      !carry &&
      han(unit.text) <= 4 &&
      before &&
      (before + unit.text + (units[i + 1]?.text ?? '')).length <= max * 2
    ) {
      carry = (groups.pop() ?? '') + unit.text;
      return;
    }
    if (!isLast && (unit.introducesQuote || isFragment(text))) {
      carry = text;
      return;
    }
    carry = '';
    groups.push(text);
  });
  if (carry) groups.push(carry);
  // A trailing fragment (…，而已。) goes back onto the group before it.
  const lastGroup = groups[groups.length - 1];
  if (groups.length > 1 && lastGroup !== undefined && isFragment(lastGroup)) {
    groups.pop();
    groups[groups.length - 1] += lastGroup;
  }
  const lines: string[] = [];
  let current = '';
  for (const group of groups.flatMap((g) => splitLongQuote(g, max * 2))) {
    // Two quotations cut from one are two lines, not joined again.
    const quoteAfterQuote = /[”」』]$/.test(current) && OPENING.includes(group[0] ?? '');
    if (current && (current.length + group.length > max || quoteAfterQuote)) {
      lines.push(current);
      current = group;
    } else current += group;
  }
  if (current) lines.push(current);
  // A spoken line ends in a full stop, not a comma; a line cut from a sentence without its end
  // gets one.
  return lines.map((line) => {
    const trimmed = line.trim().replace(/[，,；;：:、]$/, '');
    return ENDED.test(trimmed) ? trimmed : `${trimmed}。`;
  });
}

/**
 * A group past `hard` characters that ends with a quotation of several sentences becomes one
 * line per sentence of the quotation, each in its own quotation marks (the first keeps what
 * introduces it): a spoken line stays short and every line keeps its marks balanced.
 */
function splitLongQuote(group: string, hard: number): string[] {
  if (group.length <= hard) return [group];
  const match = /^([^“「『]*)([“「『])([^“”「」『』]+)([”」』])([，,。]?)$/.exec(group);
  if (!match) return [group];
  const [, intro = '', open = '', inner = '', close = ''] = match;
  const parts = inner.match(/[^。！？!?…]+[。！？!?…]*/g) ?? [inner];
  if (parts.length < 2) return [group];
  return parts.map((part, i) => `${i === 0 ? intro : ''}${open}${part}${close}`);
}
