import { setTimeout as sleep } from 'node:timers/promises';
import type { TextProvider, TextRequest } from '../types';
import {
  analyse,
  characterNames,
  keywords,
  pickSentences,
  splitSentences,
  textRank,
  type Sentence,
} from '../../text/analysis';
import {
  fill,
  pick,
  SYNONYMS,
  TITLE_PATTERNS,
  toneProfile,
  wording,
  type ToneProfile,
} from './templates';
import { isWholeSentence, spokenLines } from './sentences';

export const LOCAL_ENGINE_LABEL = '本地引擎（离线抽取式）';

/** Default length per kind or mode when the request names none. */
export function defaultLength(request: Pick<TextRequest, 'kind' | 'mode'>): number {
  if (request.mode === 'titles') return 200;
  if (request.mode) return 600;
  return { promo: 300, narration: 600, spoken: 150 }[request.kind ?? 'promo'];
}

interface Material {
  sentences: Sentence[];
  scores: number[];
  keywords: string[];
  names: string[];
  lead: string;
  book: string;
  profile: ToneProfile;
  seed: number;
}

function material(request: TextRequest, seed: number): Material {
  const parts = request.source.map((part) => part.text);
  const all = parts.join('\n');
  // Only sentences that stand alone are material: a quotation is kept with its attribution,
  // and a fragment or a speech verb that lost its words is never copied out.
  const sentences = joinAttributions(analyse(parts)).filter((s) => isWholeSentence(s.text));
  const names = characterNames(all, 3);
  const kws = keywords(all, 8).filter((k) => !names.includes(k));
  return {
    sentences,
    scores: textRank(sentences),
    keywords: kws,
    names,
    lead: names[0] ?? '主角',
    // Empty without a book (a pasted text): closers then do not name one.
    book: request.bookTitle || request.source.find((part) => part.title)?.title || '',
    profile: toneProfile(request.tone, request.genre),
    seed,
  };
}

const NO_BOOK_CLOSER = '喜欢这个故事，记得点赞关注，下期更精彩。';

/** A sentence that is a whole quotation: “……” with nothing outside it. */
const QUOTE_ONLY = /^[“「『][^“「『]*[”」』]$/;
/** The start of a sentence that attributes the quotation before it: 陈念问。 / 陈屿笑着说，“…” */
const ATTRIBUTION =
  /^[^，,。！？!?“”「」『』]{0,10}(?:说|道|问|答|喊|叫|嚷|笑|叹)[了着]?(?:[，,。：:]|$)/;

/**
 * The sentence splitter cuts 「“别的是什么？”陈念问。」 after the question mark, leaving a
 * quotation without its speaker and 「陈念问。」 without its words; the two go back together here
 * (text/analysis.ts's splitSentences is the place for this in the long run).
 */
export function joinAttributions<T extends { text: string; words: string[]; part: number }>(
  sentences: T[],
): T[] {
  const out: T[] = [];
  for (const sentence of sentences) {
    const previous = out[out.length - 1];
    if (
      previous &&
      previous.part === sentence.part &&
      QUOTE_ONLY.test(previous.text) &&
      ATTRIBUTION.test(sentence.text)
    ) {
      out[out.length - 1] = {
        ...previous,
        text: previous.text + sentence.text,
        words: [...previous.words, ...sentence.words],
      };
    } else out.push(sentence);
  }
  return out.map((s, index) => ({ ...s, index }));
}

/** The source's sentences with each quotation kept with its attribution (modes on a text). */
function wholeSentences(text: string): string[] {
  return joinAttributions(splitSentences(text).map((t) => ({ text: t, words: [], part: 0 }))).map(
    (s) => s.text,
  );
}

function values(m: Material, index = 0): Record<string, string> {
  return {
    name: m.lead,
    other: m.names[1] ?? '对方',
    book: m.book,
    kw: m.keywords[index % Math.max(1, m.keywords.length)] ?? m.lead,
  };
}

function promo(m: Material, length: number): string {
  const w = wording(m.profile);
  const hook = fill(pick(w.promoHooks, m.seed), values(m));
  const leadIn = pick(w.leadIns, m.seed + 1);
  const question = fill(pick(w.questions, m.seed + 2), values(m, m.seed));
  const closer = m.book ? fill(pick(w.closers, m.seed + 3), values(m)) : NO_BOOK_CLOSER;
  const budget = Math.max(
    40,
    length - hook.length - leadIn.length - question.length - closer.length,
  );
  const picked = pickSentences(m.sentences, m.scores, budget);
  // One paragraph per chapter the excerpt comes from.
  const paragraphs: string[] = [];
  let lastPart = -1;
  for (const s of picked) {
    if (s.part !== lastPart) paragraphs.push('');
    lastPart = s.part;
    paragraphs[paragraphs.length - 1] += s.text;
  }
  return [hook, `${leadIn}${paragraphs.join('\n')}`, `${question}\n${closer}`].join('\n\n');
}

function narration(m: Material, length: number): string {
  const w = wording(m.profile);
  const opener = pick(w.narrationOpeners, m.seed);
  const closer = pick(w.narrationClosers, m.seed + 1);
  const picked = pickSentences(
    m.sentences,
    m.scores,
    Math.max(60, length - opener.length - closer.length - 20),
  );
  const lines: string[] = [opener];
  picked.forEach((s, i) => {
    const beat = spokenLines(s.text);
    // A connective every few beats keeps the script flowing when spoken aloud.
    if (i > 0 && i % 3 === 0 && beat[0]) beat[0] = pick(w.narrationLinks, m.seed + i) + beat[0];
    lines.push(...beat);
  });
  lines.push(closer);
  return lines.join('\n');
}

function spoken(m: Material, length: number): string {
  const w = wording(m.profile);
  const opener = pick(w.spokenOpeners, m.seed);
  const question = fill(pick(w.questions, m.seed + 2), values(m, m.seed));
  const closer = m.book ? fill(pick(w.spokenClosers, m.seed + 1), values(m)) : NO_BOOK_CLOSER;
  const budget = Math.max(30, length - opener.length - question.length - closer.length);
  const picked = pickSentences(m.sentences, m.scores, budget, { maxSentenceLength: 40 });
  const body = picked.flatMap((s) => spokenLines(s.text, 22));
  return [opener, ...body, question, closer].join('\n');
}

// ---------------------------------------------------------------------------------------------
// /create modes

const SCENES: Record<ToneProfile, string[]> = {
  suspense: [
    '四下忽然安静下来，只剩{name}自己的心跳声。',
    '{name}隐约觉得，{kw}这件事远没有看上去那么简单。',
    '有什么东西在暗处注视着这一切。',
    '门外传来一阵极轻的脚步声，又很快消失了。',
    '{other}的话在{name}耳边反复回响，越想越不对劲。',
    '{name}忽然想起一个被忽略的细节。',
  ],
  passion: [
    '{name}握紧了拳头，眼里燃起了光。',
    '所有人都在等着看笑话，{name}偏偏不肯低头。',
    '{kw}就在眼前，这一次，{name}不打算再退。',
    '{other}冷笑一声，{name}却只是平静地抬起头。',
    '一股热流从心底涌起，{name}第一次觉得自己离{kw}这么近。',
    '{name}深吸一口气，迈出了第一步。',
  ],
  warm: [
    '风很轻，{name}忽然觉得心里某个地方被轻轻碰了一下。',
    '{kw}还在那里，像是在等一个迟到的人。',
    '{name}没有说话，只是笑了笑。',
    '{other}的声音很轻，却让{name}记了很久。',
    '窗外的灯一盏盏亮起来，{name}忽然不那么想走了。',
    '那些说不出口的话，{name}都藏进了{kw}里。',
  ],
  humor: [
    '{name}沉默了三秒，决定假装什么都没发生。',
    '事情的发展，又一次超出了{name}的预料。',
    '说好的{kw}呢？{name}在心里默默吐槽。',
    '{other}一脸认真，{name}差点没绷住。',
    '{name}默默在心里给{kw}记了一笔账。',
    '很好，{name}想，今天又是被生活教育的一天。',
  ],
  neutral: [
    '{name}停下脚步，把眼前的事想了一遍。',
    '关于{kw}，{name}心里渐渐有了主意。',
    '日子照旧往前走，可有些东西已经不一样了。',
    '{other}看了{name}一眼，没有多问。',
    '{name}把{kw}的事记在心里，决定先走一步看一步。',
    '天色渐渐暗了下来，{name}却越来越清醒。',
  ],
};

function scene(m: Material, i: number): string {
  return fill(pick(SCENES[m.profile], m.seed + i), values(m, i));
}

const sceneCount = (m: Material) => SCENES[m.profile].length;

/** Outline points: numbered or bulleted lines, else the prompt's sentences. */
function outlinePoints(text: string): string[] {
  const lines = text
    .split(/\n+/)
    .map((line) =>
      line
        .replace(/^\s*(?:\d+[.、)）]|[-*•·]|第[一二三四五六七八九十\d]+[步点幕场])\s*/, '')
        .trim(),
    )
    .filter(Boolean);
  const points = lines.length > 1 ? lines : splitSentences(text);
  return points.map((p) => (/[。！？!?…”」]$/.test(p) ? p : `${p}。`));
}

function write(m: Material, source: string, length: number): string {
  const points = outlinePoints(source);
  if (points.length === 0) return '';
  const perPoint = Math.min(3, Math.max(1, Math.round(length / points.length / 40)));
  const paragraphs = points.map((point, i) => {
    const extra = Array.from({ length: perPoint }, (_, k) => scene(m, i * perPoint + k));
    return point + extra.join('');
  });
  return paragraphs.join('\n\n');
}

function continueText(m: Material, source: string, length: number): string {
  const w = wording(m.profile);
  const last = excerptEnd(wholeSentences(source));
  // Each scene line at most once: a shorter continuation beats a repetitive one.
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < sceneCount(m) && used < length; i++) {
    const sentence = (i % 2 === 1 ? pick(w.narrationLinks, m.seed + i) : '') + scene(m, i);
    out.push(sentence);
    used += sentence.length;
  }
  out.push(fill(pick(w.questions, m.seed), values(m, m.seed)));
  const paragraphs: string[] = [];
  for (let k = 0; k < out.length; k += 3) paragraphs.push(out.slice(k, k + 3).join(''));
  return `（接上文：${last}）\n\n${paragraphs.join('\n\n')}`;
}

/**
 * The end of the text continued, in whole sentences of about 60 characters at most: a cut in
 * the middle would leave half a sentence or an open quotation mark. A last sentence longer than
 * that is shown from a clause outside its quotations, after 「……」.
 */
function excerptEnd(sentences: string[], max = 60): string {
  let out = '';
  for (let i = sentences.length - 1; i >= 0; i--) {
    const sentence = sentences[i] ?? '';
    if (out && out.length + sentence.length > max) break;
    out = sentence + out;
  }
  if (out.length <= max) return out;
  const lines = spokenLines(out, 1);
  let tail = '';
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (tail && tail.length + line.length > max) break;
    tail = line + tail;
  }
  return tail === out ? out : `……${tail}`;
}

/** A text's sentences with nothing dropped: what follows the last sentence end is one more. */
const keepAll = (line: string) =>
  line.match(/[^。！？!?…]+(?:[。！？!?…]+[”」』"’）)]*)?|[。！？!?…]+/g) ?? [];

/**
 * Synonym swaps, line by line: the text keeps its own lines (a script of subtitle lines stays one
 * line per cue, with no blank lines put between them) and every character it had; only words of
 * the SYNONYMS table change.
 */
function rewrite(source: string, seed: number): string {
  let index = 0;
  return source
    .split('\n')
    .map((line) =>
      keepAll(line)
        .map((sentence) => {
          const i = index++;
          let out = sentence;
          // Each sentence swaps at most two words, alternating which, so the text reads new
          // without drifting from its meaning.
          let swapped = 0;
          for (const [from, to] of SYNONYMS) {
            if (swapped >= 2) break;
            if (out.includes(from) && (i + seed + swapped) % 2 === 0) {
              out = out.replace(from, to);
              swapped++;
            }
          }
          return out;
        })
        .join(''),
    )
    .join('\n')
    .trim();
}

function expand(m: Material, source: string, length: number): string {
  const sentences = wholeSentences(source);
  if (sentences.length === 0) return '';
  const extraNeeded = Math.max(0, length - source.length);
  const every = Math.max(1, Math.round(sentences.length / Math.max(1, extraNeeded / 30)));
  const out: string[] = [];
  sentences.forEach((sentence, i) => {
    out.push(sentence);
    if ((i + 1) % every === 0) out.push(scene(m, i));
  });
  const paragraphs: string[] = [];
  for (let k = 0; k < out.length; k += 4) paragraphs.push(out.slice(k, k + 4).join(''));
  return paragraphs.join('\n\n');
}

const HALF_TO_FULL: Record<string, string> = {
  ',': '，',
  '.': '。',
  '!': '！',
  '?': '？',
  ':': '：',
  ';': '；',
};

const FILLERS = /(然后然后|就是说|其实吧|那个那个|的的|了了|嗯嗯|啊啊)/g;

export function polish(source: string): string {
  const normalised = source
    .replace(/[ \t]+/g, (spaces, offset: number, whole: string) =>
      // Spaces between Chinese characters are typing slips; between Latin words they are not.
      /\p{Script=Han}/u.test(whole[offset - 1] ?? '') ||
      /\p{Script=Han}/u.test(whole[offset + spaces.length] ?? '')
        ? ''
        : ' ',
    )
    // Half-width punctuation after Chinese text, whole runs at a time (「!!」 as well as 「!」).
    .replace(/(?<=[\p{Script=Han}，。！？；：])[,.!?:;]+(?![\d.])/gu, (run: string) =>
      Array.from(run, (c) => HALF_TO_FULL[c] ?? c).join(''),
    )
    .replace(/([，。！？；：])\1+/g, '$1')
    .replace(/\.{3,}|。{3,}/g, '……')
    .replace(FILLERS, (word) => word.slice(0, word.length / 2));
  return normalised
    .split(/\n+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((paragraph) => {
      const sentences = splitSentences(paragraph);
      // The same sentence twice in a row is a paste slip.
      const unique = sentences.filter((s, i) => s !== sentences[i - 1]);
      const chunks: string[] = [];
      for (let k = 0; k < unique.length; k += 5) chunks.push(unique.slice(k, k + 5).join(''));
      return chunks.join('\n\n');
    })
    .join('\n\n');
}

function titles(m: Material): string {
  const patterns = TITLE_PATTERNS[m.profile].concat(TITLE_PATTERNS.neutral);
  const kws = m.keywords.length > 0 ? m.keywords : ['故事'];
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = 0; out.length < 10 && i < patterns.length * kws.length; i++) {
    const pattern = patterns[i % patterns.length] ?? '{a}';
    const a = kws[Math.floor(i / patterns.length + i) % kws.length] ?? '故事';
    const b = kws[(Math.floor(i / patterns.length + i) + 1) % kws.length] ?? '远方';
    const title = fill(pattern, { a, b, name: m.lead });
    if (!seen.has(title)) {
      seen.add(title);
      out.push(`${out.length + 1}. 《${title}》`);
    }
  }
  return `根据关键词「${kws.slice(0, 5).join('、')}」拟的标题：\n${out.join('\n')}`;
}

/** The whole text the local engine writes for a request (synchronous; streamed by the provider). */
export function compose(request: TextRequest, seed = 0): string {
  const source = request.source.map((part) => part.text).join('\n\n');
  const m = material(request, seed);
  const length = request.length;
  switch (request.mode) {
    case 'write':
      return write(m, source, length);
    case 'continue':
      return continueText(m, source, length);
    case 'rewrite':
      return rewrite(source, seed);
    case 'expand':
      return expand(m, source, length);
    case 'polish':
      return polish(source);
    case 'titles':
      return titles(m);
    default:
      break;
  }
  if (request.kind === 'narration') return narration(m, length);
  if (request.kind === 'spoken') return spoken(m, length);
  return promo(m, length);
}

/** Pieces of a few characters, so the page shows the text arriving as with a model. */
export function pieces(text: string, size = 6): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** The longest the local engine takes to stream a text, however long. */
const MAX_STREAM_MS = 1500;

export interface LocalEngineOptions {
  /** Pause between pieces; 0 in tests and benchmarks of the engine itself. */
  pieceDelayMs?: number;
  /** Varies the template wording between runs; fixed in tests. */
  seed?: () => number;
}

export function createLocalProvider(options: LocalEngineOptions = {}): TextProvider {
  const delay = options.pieceDelayMs ?? 12;
  const seed = options.seed ?? (() => Math.floor(Math.random() * 1000));
  return {
    name: 'local',
    label: LOCAL_ENGINE_LABEL,
    async *stream(request, signal) {
      const text = compose(request, seed());
      const parts = pieces(text);
      // The pause shows a short text arriving; a long one (a rewritten script of thousands of
      // characters: 12 ms a piece was 2 ms a character, 30 s for 15 000) arrives within
      // MAX_STREAM_MS all the same.
      const pause = Math.min(delay, MAX_STREAM_MS / Math.max(1, parts.length));
      for (const piece of parts) {
        signal.throwIfAborted();
        yield piece;
        if (pause >= 1) await sleep(pause, undefined, { signal });
      }
    },
  };
}
