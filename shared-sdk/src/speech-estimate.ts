import { ProjectType } from './enums';
import type { Gender } from './gender';
import { splitSentences } from './text/sentences';
import { defaultVoices, type GenderedVoice } from './voices';

/**
 * How long a narration lasts once spoken: the one model the pages (the lengths they show before
 * anything is rendered) and the server (a task's expected length, hence its remaining time) share.
 *
 * The rendered length of every narrated type is its sentences spoken one by one and joined with
 * `SENTENCE_PAUSE_MS` between them (comic, decompression, scroll, market; drama and anime the same
 * per line, each speaker at its own speed variant), so the model is per sentence. An offline
 * sentence's length was fitted on real espeak-ng synthesis (`bench/estimate.mjs` prints the
 * estimate against the synthesis, per voice): a fixed part per utterance (espeak's lead-in and
 * tail silence) plus a part per spoken unit (a CJK syllable, a Latin word or letter, a
 * digit, a clause pause at a comma, a quotation mark's pitch reset), all divided by the speed
 * raised to the voice's exponent: espeak speeds up more than the words-per-minute factor it is
 * given (measured: Mandarin 2× speed is 2.32× shorter, English 2.14×).
 */

/** The pause between two sentences of a narration (every engine joins its sentences with it). */
export const SENTENCE_PAUSE_MS = 250;

/** The offline voices the server speaks with when a work names none. */
export const DEFAULT_ZH_VOICE_ID = 'espeak-cmn-f';
export const DEFAULT_EN_VOICE_ID = 'espeak-en-us-f';

/**
 * The offline Mandarin voices, which the server gives the speakers of a dialogue that the
 * creator gave none (by gender, `defaultVoices`); a server test keeps the list equal to the
 * offline engine's.
 */
export const OFFLINE_ZH_VOICES: readonly GenderedVoice[] = [
  { voiceId: DEFAULT_ZH_VOICE_ID, gender: 'female' },
  { voiceId: 'espeak-cmn-m', gender: 'male' },
];

/**
 * Speed factors of the drama and anime speakers beyond the offline voices: the third character
 * reuses the first voice a little faster, and so on (`server/src/video/pipelines/kit/dialogue.ts`
 * assigns them in this order; a server test keeps the two lists equal).
 */
export const VOICE_VARIANT_SPEEDS: readonly number[] = [1, 1.15, 0.87, 1.3, 0.77];

/** The sentence rules of the server and the caption page: one split, in the SDK's text module. */
export { splitSentences };

/** Milliseconds per unit of one kind of voice at speed 1. */
interface SpeechRate {
  /** Per sentence (the engine's lead-in and tail). */
  sentence: number;
  cjk: number;
  /** Per Latin word, plus `letter` per letter of it. */
  word: number;
  letter: number;
  digit: number;
  /** Per clause pause (，、：；… inside a sentence). */
  clause: number;
  /** Per quotation mark. */
  quote: number;
  /** Length ∝ 1 / speed^exponent. */
  exponent: number;
  /** The same for the CJK part, when it speeds up otherwise (the English voice spelling it). */
  cjkExponent?: number;
}

/**
 * Fitted on espeak-ng 1.52 (the `espeak-ng` WebAssembly build the server runs) by least squares
 * over 113 Mandarin and 87 English sentences at speeds 0.7, 1 and 1.5; the female and male
 * variants of one language speak at the same rate (within 1 %).
 */
const OFFLINE_ZH: SpeechRate = {
  sentence: 310,
  cjk: 241,
  word: 646,
  letter: 0,
  digit: 357,
  clause: 300,
  quote: 142,
  exponent: 1.2,
};
/**
 * The English voices: a Chinese character is spelt out by name (「Chinese letter …」), 655 ms,
 * and that part speeds up less than words do.
 */
const OFFLINE_EN: SpeechRate = {
  sentence: 272,
  cjk: 655,
  cjkExponent: 0.95,
  word: 0,
  letter: 64,
  digit: 383,
  clause: 0,
  quote: 0,
  exponent: 1.1,
};
/**
 * A configured provider voice (`tts-…`): no recording here to fit, so the documented rates of
 * natural read speech: Mandarin about 4.5 characters a second, English about 160 words a minute
 * (75 ms a letter), with a short pause at each comma; the provider is given the speed as is.
 */
const PROVIDER: SpeechRate = {
  sentence: 200,
  cjk: 222,
  word: 0,
  letter: 75,
  digit: 300,
  clause: 200,
  quote: 0,
  exponent: 1,
};

export type SpeechEngineKind = 'offline-zh' | 'offline-en' | 'provider';

/** Which rate a voice id speaks at: the offline voices by language, any other id a provider's. */
export function speechEngineOf(voiceId: string): SpeechEngineKind {
  if (voiceId.startsWith('espeak-cmn')) return 'offline-zh';
  if (voiceId.startsWith('espeak-')) return 'offline-en';
  return 'provider';
}

const RATES: Record<SpeechEngineKind, SpeechRate> = {
  'offline-zh': OFFLINE_ZH,
  'offline-en': OFFLINE_EN,
  provider: PROVIDER,
};

const OVERSEAS: ReadonlySet<number> = new Set([
  ProjectType.comicsOverseas,
  ProjectType.decompressionOverseas,
]);

/** The voice a work of a type is spoken with: its own, else the type's default (English overseas). */
export function narrationVoiceOf(type: number, voiceId?: string | null): string {
  if (voiceId) return voiceId;
  return OVERSEAS.has(type) ? DEFAULT_EN_VOICE_ID : DEFAULT_ZH_VOICE_ID;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
const WORD = /[A-Za-z]+(?:['’-][A-Za-z]+)*/g;
const DIGIT = /\d/g;
const CLAUSE = /[，,、：:；;…—]+/g;
const QUOTE = /[“”"「」『』]/g;

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

export interface SpeechEstimateOptions {
  /** The voice (`espeak-…` offline, anything else a provider's); absent: the Mandarin default. */
  voiceId?: string | null;
  /** 1 = normal, 0.5 to 2 (clamped as the engines clamp it). */
  speed?: number;
}

const clampSpeed = (speed: number | undefined) =>
  Math.min(2, Math.max(0.5, Number.isFinite(speed) && speed ? speed : 1));

/** How long one sentence takes to say, in milliseconds, without the pause after it. */
export function estimateSentenceMs(sentence: string, options: SpeechEstimateOptions = {}): number {
  const rate = RATES[speechEngineOf(options.voiceId || DEFAULT_ZH_VOICE_ID)];
  const latin = sentence.replace(CJK, ' ');
  const words = latin.match(WORD) ?? [];
  const speed = clampSpeed(options.speed);
  const cjk = count(sentence, CJK) * rate.cjk;
  const rest =
    rate.sentence +
    words.length * rate.word +
    words.join('').length * rate.letter +
    count(latin, DIGIT) * rate.digit +
    count(sentence, CLAUSE) * rate.clause +
    count(sentence, QUOTE) * rate.quote;
  return (
    cjk / Math.pow(speed, rate.cjkExponent ?? rate.exponent) + rest / Math.pow(speed, rate.exponent)
  );
}

/**
 * The length of a narration: its sentences (a text is split as the server splits it) spoken
 * one after another with the pause between them. 0 for nothing to say.
 */
export function estimateNarrationMs(
  text: string | readonly string[],
  options: SpeechEstimateOptions = {},
): number {
  const sentences = typeof text === 'string' ? splitSentences(text) : text;
  if (sentences.length === 0) return 0;
  const spoken = sentences.reduce((sum, s) => sum + estimateSentenceMs(s, options), 0);
  return Math.round(spoken + (sentences.length - 1) * SENTENCE_PAUSE_MS);
}

/** One line of a drama or anime script: its text, and who says it with which voice. */
export interface EstimatedLine {
  text: string;
  speaker: string;
  voiceId?: string | null;
}

/** How the speakers of a dialogue are voiced, beyond the voices their lines carry. */
export interface DialogueEstimateOptions {
  speed?: number;
  /**
   * Each speaker's gender, which picks the default voice of a speaker without one as the server
   * picks it (its work's roles, else what the story says); absent: unknown, the voices alternate.
   */
  genderOf?: (speaker: string) => Gender | null | undefined;
}

/**
 * How long each line of a dialogue (the real-person drama and the anime short) keeps the screen:
 * its sentences, each at its speaker's voice and speed variant (a voice used by a second
 * speaker is spoken faster or slower, `VOICE_VARIANT_SPEEDS`), each followed by the sentence
 * pause. Speakers without a voice get the offline Mandarin voices by the server's rule
 * (`defaultVoices`); the order of first appearance decides, so give the whole script.
 */
export function estimateDialogueLinesMs(
  lines: readonly EstimatedLine[],
  options: DialogueEstimateOptions = {},
): number[] {
  // A line of several sentences is spoken sentence by sentence, as the server splits it.
  const split = lines.map((line) => splitSentences(line.text));
  const voices = dialogueVoices(
    lines.filter((_, i) => (split[i]?.length ?? 0) > 0),
    options.genderOf ?? (() => null),
  );
  const speed = clampSpeed(options.speed);
  return lines.map((line, i) => {
    const voice = voices.get(line.speaker) ?? { voiceId: DEFAULT_ZH_VOICE_ID, factor: 1 };
    const lineSpeed = clampSpeed(speed * voice.factor);
    return Math.round(
      (split[i] ?? []).reduce(
        (sum, text) =>
          sum +
          estimateSentenceMs(text, { voiceId: voice.voiceId, speed: lineSpeed }) +
          SENTENCE_PAUSE_MS,
        0,
      ),
    );
  });
}

/** The length of a whole dialogue: its lines, without a pause after the last. */
export function estimateDialogueMs(
  lines: readonly EstimatedLine[],
  options: DialogueEstimateOptions = {},
): number {
  const total = estimateDialogueLinesMs(lines, options).reduce((sum, ms) => sum + ms, 0);
  return Math.max(0, total - SENTENCE_PAUSE_MS);
}

/** Speakers' voices and speed variants as the server assigns them (the SDK's defaultVoices). */
function dialogueVoices(
  lines: readonly EstimatedLine[],
  genderOf: (speaker: string) => Gender | null | undefined,
): Map<string, { voiceId: string; factor: number }> {
  const chosen: Record<string, string> = {};
  for (const line of lines) {
    if (line.voiceId && !(line.speaker in chosen)) chosen[line.speaker] = line.voiceId;
  }
  const speakers = [...new Set(lines.map((line) => line.speaker))];
  // Any chosen voice speaks (the pages offer only the voices the server lists).
  const picked = defaultVoices(speakers, chosen, OFFLINE_ZH_VOICES, genderOf, () => true);
  return new Map(
    Object.entries(picked).map(([speaker, voice]) => [
      speaker,
      {
        voiceId: voice.voiceId,
        factor: VOICE_VARIANT_SPEEDS[voice.nth % VOICE_VARIANT_SPEEDS.length] ?? 1,
      },
    ]),
  );
}
