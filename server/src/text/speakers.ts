import type { Person } from './names';
import { segmenter } from './segmenter';
import {
  ENDS_WITH_SPEECH,
  NOBODY,
  SPEECH_AFTER,
  SPEECH_BEFORE,
  stripManners,
} from './speech-words';

/** The noun a sentence starts with, when it is someone (老仆回头…), not a time or a place. */
function commonNounLead(lead: string): string | null {
  const [first] = segmenter().jieba.tag(lead.replace(/^[，,\s]+/u, ''), true);
  if (!first || first.word.length < 2 || first.word.length > 4) return null;
  if (!/^n$|^nr|^x$/u.test(first.tag) || NOBODY.has(first.word)) return null;
  return /[时里上下前后中外内边]$/u.test(first.word) ? null : first.word;
}

/** 值班护士, 老仆, 店小二: a short noun left of a speech clause once manner words are gone. */
function unnamedOf(subject: string): string | null {
  const bare = stripManners(subject.replace(/^[，,\s]+/u, '')).replace(
    /^(?:只听|这时|此时|旁边的|一旁的|其中)+/u,
    '',
  );
  const noun = /\p{Script=Han}{2,4}$/u.exec(bare)?.[0] ?? '';
  if (!noun || /[的了着是在不我你他她它把被就都也还又说道问看]/u.test(noun)) return null;
  return NOBODY.has(noun) ? null : noun;
}

/**
 * Who says each line of a story: the speech verb before or after the quotation (沈言苦笑道：,
 * ”青崖颤声道。), the subject of the sentence just before it, the same speaker again when the
 * narration between two quotations names nobody else, alternation in a two-person exchange,
 * and 他/她 resolved to the person last named of that gender. A speaker is always one of the
 * people found (a name, never a name with a verb or an adverb stuck to it), or null when the
 * text does not say (有人喊道, a crowd, the narrator 我).
 */

export type Gender = 'female' | 'male';

export interface Quotation {
  /** The words said, without the marks. */
  text: string;
  /** Position of the opening mark in the text, and after the closing one. */
  start: number;
  end: number;
  speaker: string | null;
  /** When nobody named says it: what the text calls the speaker (老仆, 店小二), if anything. */
  unnamed: string | null;
}

interface Mention {
  at: number;
  /** A person's name, or a pronoun or a person noun (他, 她, 我, 少女, 老者). */
  who: string;
  /** Named inside a quotation (whom it addresses), not by the narration. */
  spoken?: boolean;
}

/** Words that stand for a person of a gender when the text has not named them there. */
const PERSON_NOUNS: Record<string, Gender> = {
  小姑娘: 'female',
  少女: 'female',
  女子: 'female',
  女孩: 'female',
  女人: 'female',
  姑娘: 'female',
  妇人: 'female',
  她: 'female',
  中年男人: 'male',
  少年: 'male',
  男子: 'male',
  男孩: 'male',
  男人: 'male',
  老人: 'male',
  老者: 'male',
  他: 'male',
};
const PERSON_NOUN = new RegExp(
  `(?:${Object.keys(PERSON_NOUNS)
    .sort((a, b) => b.length - a.length)
    .join('|')}|我)(?!们)`,
  'gu',
);

const QUOTE = /[“「『]([^”」』]*)[”」』]/gu;

export function quotations(text: string): Array<Omit<Quotation, 'speaker' | 'unnamed'>> {
  return [...text.matchAll(QUOTE)].map((match) => ({
    text: match[1] ?? '',
    start: match.index ?? 0,
    end: (match.index ?? 0) + match[0].length,
  }));
}

/** Every name, alias, pronoun and person noun of the narration (outside quotations), in order. */
function mentionsOf(
  text: string,
  people: readonly Person[],
  quotes: ReadonlyArray<{ start: number; end: number }>,
): Mention[] {
  const spellings = people
    .flatMap((person) =>
      [person.name, ...person.aliases].map((spelling) => ({ spelling, name: person.name })),
    )
    .sort((a, b) => b.spelling.length - a.spelling.length);
  const inQuote = (at: number) => quotes.some((q) => at > q.start && at < q.end);
  const taken: boolean[] = [];
  const mentions: Mention[] = [];
  for (const { spelling, name } of spellings) {
    let at = text.indexOf(spelling);
    while (at >= 0) {
      const free = !taken.slice(at, at + spelling.length).some(Boolean);
      if (free && !inQuote(at)) {
        for (let i = at; i < at + spelling.length; i++) taken[i] = true;
        mentions.push({ at, who: name });
      }
      at = text.indexOf(spelling, at + spelling.length);
    }
  }
  // Whom a quotation addresses (“王总，…”) is in the scene: a newcomer noun may be them.
  for (const q of quotes) {
    const head =
      /^[“「『]([^，,！!？?。…]{1,6})[，,！!？?]/u.exec(text.slice(q.start, q.end))?.[1] ?? '';
    const who = spellings.find(({ spelling }) => head === spelling);
    if (who && !taken[q.start + 1]) {
      taken[q.start + 1] = true;
      mentions.push({ at: q.start + 1, who: who.name, spoken: true });
    }
  }
  for (const match of text.matchAll(PERSON_NOUN)) {
    const at = match.index ?? 0;
    if (!taken.slice(at, at + match[0].length).some(Boolean) && !inQuote(at))
      mentions.push({ at, who: match[0] });
  }
  return mentions.sort((a, b) => a.at - b.at);
}

/**
 * The narrator's name when the story says it: 我叫宋一鸣; or, in a story told by 我, the one
 * person the others call by name but the narration never names (“晚晚，志愿表填好了吧？”).
 */
function narratorOf(text: string, people: readonly Person[]): string | null {
  const narration = text.replace(/[“「『][^”」』]*[”」』]/gu, '');
  const intro = /我(?:叫|是|名叫)(\p{Script=Han}{2,4})/u.exec(narration);
  if (intro) return people.find((p) => (intro[1] ?? '').startsWith(p.name))?.name ?? null;
  if ((narration.match(/我(?!们)/gu)?.length ?? 0) < 3) return null;
  const calledIn = (p: Person) =>
    [p.name, ...p.aliases].some((s) => new RegExp(`[“「『]${s}[，,！!？?]`, 'u').test(text));
  const onlySpokenTo = people.filter(
    (p) => ![p.name, ...p.aliases].some((s) => narration.includes(s)) && calledIn(p),
  );
  return onlySpokenTo.length === 1 ? (onlySpokenTo[0]?.name ?? null) : null;
}

/**
 * Who each mention of a story stands for: the names, 我 (the narrator), 他/她 and person nouns
 * (少女, 中年男人) resolved to the people found. Shared by the speaker attribution and the looks.
 */
export interface Resolver {
  mentions: ReadonlyArray<{ at: number; who: string }>;
  resolve(who: string, at: number): string | null;
  /** The first person named or referred to in text[from, to), resolved. */
  firstIn(from: number, to: number): string | null;
}

export function mentionResolver(
  text: string,
  people: readonly Person[],
  genderOf: (name: string) => Gender | null = () => null,
): Resolver {
  const quotes = quotations(text);
  const mentions = mentionsOf(text, people, quotes);
  const named = mentions.filter((m) => people.some((p) => p.name === m.who));
  const narrator = narratorOf(text, people);
  const between = (from: number, to: number) => mentions.filter((m) => m.at >= from && m.at < to);

  /**
   * The person a mention stands for: a name is itself; 我 the narrator; 他/她 and person nouns
   * the last person named before of that gender, else the first named after (the newcomer a
   * sentence names later: 一个白衣少女… 我叫苏清雪).
   */
  const resolve = (who: string, at: number): string | null => {
    if (who === '我') return narrator;
    const gender = PERSON_NOUNS[who];
    if (!gender) return who;
    const fits = (m: Mention) => genderOf(m.who) !== (gender === 'female' ? 'male' : 'female');
    const exact = (m: Mention) => genderOf(m.who) === gender;
    const before = named.filter((m) => m.at < at).reverse();
    const after = named.filter((m) => m.at > at);
    const pronoun = who === '他' || who === '她';
    if (pronoun) {
      // 他/她 refer to someone the narration named, not to whom a quotation called.
      const told = (list: Mention[]) => list.filter((m) => !m.spoken);
      const [tb, ta] = [told(before), told(after)];
      return (
        tb.find(exact)?.who ??
        tb.find(fits)?.who ??
        ta.find(exact)?.who ??
        ta.find(fits)?.who ??
        null
      );
    }
    // A person noun (少女) is somebody not named yet here: the next person named of that
    // gender, else the last one.
    const newcomer = (m: Mention) => !before.some((b) => b.who === m.who);
    return (
      after.find((m) => exact(m) && newcomer(m))?.who ??
      after.find((m) => fits(m) && newcomer(m))?.who ??
      before.find(exact)?.who ??
      before.find(fits)?.who ??
      null
    );
  };
  const firstIn = (from: number, to: number): string | null => {
    const first = between(from, to)[0];
    return first ? resolve(first.who, first.at) : null;
  };
  return { mentions, resolve, firstIn };
}

export function attributeSpeakers(
  text: string,
  people: readonly Person[],
  genderOf: (name: string) => Gender | null = () => null,
): Quotation[] {
  const quotes = quotations(text);
  const { mentions, resolve, firstIn } = mentionResolver(text, people, genderOf);
  const between = (from: number, to: number) => mentions.filter((m) => m.at >= from && m.at < to);
  const nobodyIn = (s: string) => [...NOBODY].some((word) => s.includes(word));
  /** Is there anything left of a speaker clause once manner words and the verb are gone? */
  const hasSubject = (clause: string) =>
    stripManners(clause.replace(ENDS_WITH_SPEECH, '').replace(/[：:，,\s]+$/u, '')).replace(
      /[，,\s]/gu,
      '',
    ).length > 0;

  const spellings = people
    .flatMap((p) => [p.name, ...p.aliases].map((spelling) => ({ spelling, name: p.name })))
    .sort((a, b) => b.spelling.length - a.spelling.length);
  /** Who a quotation opens by addressing: “凯恩，你上个月…” → 凯恩. */
  const addressee = (words: string): string | null => {
    const head = /^([^，,！!？?。…]{1,6})[，,！!？?]/u.exec(words)?.[1] ?? '';
    return (
      spellings.find(({ spelling }) => head === spelling || head.endsWith(spelling))?.name ?? null
    );
  };
  /** Who introduces themselves in the words: 我叫塞西莉亚. */
  const introducing = (words: string): string | null => {
    const intro = /我(?:叫|是|名叫)(\p{Script=Han}{2,5})/u.exec(words)?.[1] ?? '';
    const named = spellings.find(({ spelling }) => intro.startsWith(spelling))?.name;
    if (named) return named;
    // “陈三水。” in answer to “名字。”: a line that starts with just a name gives one's own.
    const bare = /^(\p{Script=Han}{2,5})。/u.exec(words.trim())?.[1] ?? '';
    return spellings.find(({ spelling }) => bare === spelling)?.name ?? null;
  };
  const namedIn = (words: string, name: string) =>
    spellings.some((s) => s.name === name && words.includes(s.spelling));

  const result: Quotation[] = [];
  let previousEnd = 0;
  for (const [i, quote] of quotes.entries()) {
    const paragraphStart = text.lastIndexOf('\n', quote.start - 1) + 1;
    const sameParagraphAsPrevious = i > 0 && previousEnd > paragraphStart;
    const beforeFrom = sameParagraphAsPrevious ? previousEnd : paragraphStart;
    const before = text.slice(beforeFrom, quote.start);
    // The sentence just before the quotation (in this paragraph, after the previous quotation).
    const lastStop = Math.max(...['。', '！', '？', '…'].map((p) => before.lastIndexOf(p)));
    const sentenceFrom = beforeFrom + (lastStop >= 0 ? lastStop + 1 : 0);
    const sentenceBefore = text.slice(sentenceFrom, quote.start).trim();
    const rest = text.slice(quote.end);
    const stop = rest.search(/[。！？\n“「]/u);
    const afterTo = quote.end + (stop < 0 ? rest.length : stop);
    const after = text.slice(quote.end, afterTo);

    let speaker: string | null = null;
    let unnamed: string | null = null;
    let decided = false;
    let explicit = false;
    const decide = (who: string | null, subject = '') => {
      speaker = who;
      decided = true;
      // The narrator nobody names is still somebody in an exchange.
      if (!who) unnamed = /^[，,\s]*我/u.test(subject) ? '我' : unnamedOf(subject);
    };
    const afterMatch = SPEECH_AFTER.exec(after);
    if (afterMatch) {
      const subject = afterMatch[1] ?? '';
      const subjectEnd = quote.end + (afterMatch.index ?? 0) + afterMatch[0].length;
      const who = firstIn(quote.end, subjectEnd);
      if (who) decide(who);
      else if (nobodyIn(subject) || hasSubject(subject)) decide(null, subject);
      explicit = decided;
    }
    if (!decided) {
      // “…”人群后头，一个穿粗布衣裳的老妇低声说。: the sentence after the words ends saying who.
      const rest = text.slice(quote.end);
      const stop = rest.search(/[。！？\n“「『]/u);
      const sentenceAfter = rest.slice(0, stop < 0 ? rest.length : stop);
      if (/[，,]/u.test(sentenceAfter) && ENDS_WITH_SPEECH.test(sentenceAfter)) {
        const lastClause = sentenceAfter.split(/[，,]/u).pop() ?? '';
        const from = quote.end + sentenceAfter.length - lastClause.length;
        const who = firstIn(from, quote.end + sentenceAfter.length);
        if (who) decide(who);
        else if (hasSubject(lastClause)) decide(null, SPEECH_BEFORE.exec(lastClause)?.[1] ?? '');
        explicit = decided;
      }
    }
    const speechBefore = ENDS_WITH_SPEECH.test(sentenceBefore) || /[：:]$/u.test(sentenceBefore);
    if (!decided && speechBefore) {
      const first = between(sentenceFrom, quote.start)[0];
      const lead = first ? text.slice(sentenceFrom, first.at).trim() : '';
      const who = firstIn(sentenceFrom, quote.start);
      // 老仆回头瞪了他一眼，冷哼一声道: the sentence's subject is somebody unnamed, and 他 is
      // whom they glare at.
      const unnamedSubject =
        first &&
        (first.who === '他' || first.who === '她') &&
        !/[，,]/u.test(lead.replace(/^[，,\s]+/u, '')) &&
        commonNounLead(lead);
      if (unnamedSubject) decide(null, unnamedSubject);
      else if (who) decide(who);
      else if (nobodyIn(sentenceBefore) || hasSubject(sentenceBefore.replace(/[：:]$/u, ''))) {
        // 其中一个站起来，怒道：somebody unnamed.
        if (!/^[，,]?[^，,]*(?:道|说|问)[：:]?$/u.test(sentenceBefore) || nobodyIn(sentenceBefore))
          decide(null, SPEECH_BEFORE.exec(sentenceBefore)?.[1] ?? '');
      }
      explicit = decided;
    }
    if (!decided && !sentenceBefore && !after.trim()) {
      // “凯恩，你欠的账…” answered by a bare line: the one spoken to answers.
      const asked = i > 0 ? addressee(quotes[i - 1]?.text ?? '') : null;
      if (asked && asked !== result[i - 1]?.speaker) decide(asked);
    }
    if (!decided && sameParagraphAsPrevious) {
      // “…”他顿了顿，“…”: the narration between names nobody else, so the same speaker.
      const last = result[result.length - 1]?.speaker ?? null;
      const others = between(previousEnd, quote.start).map((m) => resolve(m.who, m.at));
      if (others.every((who) => who === null || who === last)) decide(last);
    }
    if (!decided && after.trim() && !/^[，,]?\s*$/u.test(after)) {
      // An action right after the words is the speaker's: “…”电话那头是周予安.
      const who = firstIn(quote.end, afterTo);
      if (who) decide(who);
    }
    if (!decided && sentenceBefore && !nobodyIn(sentenceBefore)) {
      // 林默放下茶杯。“走吧。”: the subject of the sentence before speaks.
      const who = firstIn(sentenceFrom, quote.start);
      if (who) decide(who);
    }
    if (!decided) {
      // A bare line in an exchange: the other one of the last two speakers.
      // Somebody unnamed (掌柜道) takes part in an exchange too, under what the text calls them.
      const recent = result
        .slice(-3)
        .map((q) => q.speaker ?? (q.unnamed ? `?${q.unnamed}` : null))
        .filter((s): s is string => s !== null);
      const last = recent[recent.length - 1];
      const other = [...recent].reverse().find((s) => s !== last);
      const previousBare =
        i > 0 && (result[i - 1]?.end ?? 0) > text.lastIndexOf('\n', quote.start - 1) - 2;
      if (last && other) {
        if (other.startsWith('?')) decide(null, other.slice(1));
        else decide(other);
      } else if (last) {
        // One speaker so far: the one they are talking with, named last in the narration.
        const partner = [...between(0, quote.start)]
          .reverse()
          .map((m) => resolve(m.who, m.at))
          .find((who) => who && who !== last && `?${who}` !== last);
        decide(partner ?? null);
      } else if (!previousBare) {
        // The first line of a scene after narration: who the narration was about.
        const previousParagraph = text.slice(0, paragraphStart).replace(/\n+$/u, '');
        const from = previousParagraph.lastIndexOf('\n') + 1;
        decide(firstIn(from, paragraphStart));
      }
    }
    const introduced = introducing(quote.text);
    if (introduced) speaker = introduced;
    else if (
      speaker &&
      ((!explicit && namedIn(quote.text, speaker)) || addressee(quote.text) === speaker)
    ) {
      // Nobody calls themselves by name: the line is the other one's in the exchange.
      const previous = result[i - 1]?.speaker ?? null;
      speaker =
        previous && previous !== speaker && !namedIn(quote.text, previous) ? previous : null;
    }
    result.push({ ...quote, speaker, unnamed });
    previousEnd = quote.end;
  }
  return result;
}
