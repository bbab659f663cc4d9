import { findPeople } from './names';
import { segmenter } from './segmenter';

/**
 * Text analysis of the local engine: sentences, words (jieba), TextRank over sentence
 * similarity, TF-IDF keywords and likely character names. Pure and synchronous: the engine's
 * cost is measured by bench/writing.mjs.
 */

export function warmUp(): void {
  segmenter();
}

export interface Sentence {
  /** Position in the source, so picked sentences can be put back in reading order. */
  index: number;
  /** Which source part (chapter) it came from. */
  part: number;
  text: string;
  words: string[];
}

// Function words and narrative glue that say nothing about what a passage is about.
const STOP_WORDS = new Set(
  (
    '的 了 着 过 是 在 和 与 及 或 就 都 也 还 又 而 但 却 把 被 让 给 向 从 到 对 于 为 以 之 其 ' +
    '这 那 这个 那个 这些 那些 这样 那样 一个 一种 一些 没有 不是 什么 怎么 如何 自己 我们 你们 他们 她们 ' +
    '我 你 他 她 它 咱 们 吗 呢 吧 啊 呀 哦 嗯 了吧 已经 可以 因为 所以 如果 虽然 然后 于是 只是 ' +
    '一 不 很 太 更 最 再 才 便 并 又是 一样 起来 下去 出来 上去 时候 现在 知道 觉得 看着 说道 道 说'
  ).split(/\s+/),
);

const SENTENCE_END = /[^。！？!?…\n]+(?:[。！？!?]+|…+)?[”」』"’）)]*/g;

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let open = '';
  for (const match of text.matchAll(SENTENCE_END)) {
    const sentence = match[0].trim();
    // A quotation with several sentences in it stays one sentence: cutting inside it would
    // leave an unbalanced quote mark in the copy.
    const joined = open + sentence;
    if (
      (joined.match(/“/g)?.length ?? 0) > (joined.match(/”/g)?.length ?? 0) &&
      !match[0].includes('\n')
    ) {
      open = joined;
      continue;
    }
    open = '';
    if (joined.replace(/[\p{P}\s]/gu, '').length >= 2) out.push(joined);
  }
  if (open.replace(/[\p{P}\s]/gu, '').length >= 2) out.push(open);
  return out;
}

const isContentWord = (word: string) =>
  word.length >= 2 && !STOP_WORDS.has(word) && /\p{Script=Han}|[A-Za-z]{3,}/u.test(word);

export function words(text: string): string[] {
  return segmenter().jieba.cut(text, true).filter(isContentWord);
}

export function analyse(parts: string[]): Sentence[] {
  const sentences: Sentence[] = [];
  parts.forEach((text, part) => {
    for (const sentence of splitSentences(text)) {
      sentences.push({ index: sentences.length, part, text: sentence, words: words(sentence) });
    }
  });
  return sentences;
}

/**
 * TextRank (Mihalcea & Tarau 2004): sentences are nodes, edges weighted by shared words
 * normalised by log lengths, ranked by PageRank. Pairs are found through an inverted index, so
 * only sentences that share a word are compared (cheap even for ten chapters).
 */
export function textRank(sentences: Sentence[], iterations = 30, damping = 0.85): number[] {
  const n = sentences.length;
  if (n === 0) return [];
  const byWord = new Map<string, number[]>();
  const sets = sentences.map((s) => new Set(s.words));
  sets.forEach((set, i) => {
    for (const word of set) {
      const list = byWord.get(word);
      if (list) list.push(i);
      else byWord.set(word, [i]);
    }
  });
  const overlap: Array<Map<number, number>> = sentences.map(() => new Map());
  for (const list of byWord.values()) {
    // A word in most sentences (a protagonist's name) links everything: cap its fan-out.
    if (list.length > 60) continue;
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const i = list[a] as number;
        const j = list[b] as number;
        const row = overlap[i] as Map<number, number>;
        row.set(j, (row.get(j) ?? 0) + 1);
      }
    }
  }
  const edges: Array<Array<[number, number]>> = sentences.map(() => []);
  const totals = new Float64Array(n);
  overlap.forEach((row, i) => {
    for (const [j, common] of row) {
      const si = (sets[i] as Set<string>).size;
      const sj = (sets[j] as Set<string>).size;
      const denominator = Math.log(si + 1) + Math.log(sj + 1);
      const weight = denominator > 0 ? common / denominator : 0;
      if (weight <= 0) continue;
      (edges[i] as Array<[number, number]>).push([j, weight]);
      (edges[j] as Array<[number, number]>).push([i, weight]);
      totals[i] = (totals[i] ?? 0) + weight;
      totals[j] = (totals[j] ?? 0) + weight;
    }
  });
  let scores = new Float64Array(n).fill(1);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const next = new Float64Array(n).fill(1 - damping);
    for (let i = 0; i < n; i++) {
      const total = totals[i] ?? 0;
      if (total === 0) continue;
      const share = ((scores[i] ?? 0) * damping) / total;
      for (const [j, weight] of edges[i] as Array<[number, number]>) {
        next[j] = (next[j] ?? 0) + share * weight;
      }
    }
    scores = next;
  }
  return Array.from(scores);
}

export function keywords(text: string, count: number): string[] {
  const { jieba: j, tfidf: t } = segmenter();
  // Nouns only: verbs and adjectives make poor keywords for titles and questions.
  return t
    .extractKeywords(j, text, count * 2, ['n', 'nz', 'ns', 'vn', 'nt'])
    .map((k) => k.keyword)
    .filter(isContentWord)
    .slice(0, count);
}

/** The names of a text's people, most mentioned first (see names.ts). */
export function characterNames(text: string, count: number): string[] {
  return findPeople(text, count).map((person) => person.name);
}

/** Sentences picked by rank until `budget` characters, put back in reading order. */
export function pickSentences(
  sentences: Sentence[],
  scores: number[],
  budget: number,
  options: { maxSentenceLength?: number } = {},
): Sentence[] {
  const maxLength = options.maxSentenceLength ?? 90;
  const order = sentences
    .map((s, i) => ({ s, score: scores[i] ?? 0 }))
    .filter(({ s }) => s.text.length <= maxLength && s.text.length >= 6)
    .sort((a, b) => b.score - a.score);
  const picked: Sentence[] = [];
  let used = 0;
  for (const { s } of order) {
    if (used >= budget) break;
    if (used + s.text.length > budget * 1.15 && picked.length > 0) continue;
    picked.push(s);
    used += s.text.length;
  }
  return picked.sort((a, b) => a.index - b.index);
}

/** Shortens text to about `budget` characters by TextRank, keeping reading order. */
export function condense(parts: string[], budget: number): string {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  if (total <= budget) return parts.join('\n\n');
  const sentences = analyse(parts);
  return pickSentences(sentences, textRank(sentences), budget, { maxSentenceLength: 200 })
    .map((s) => s.text)
    .join('');
}
