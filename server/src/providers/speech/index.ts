import { randomBytes } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { TtsConfig } from '../../config';
import {
  DEFAULT_VOICE_ID,
  ESPEAK_ENGINE,
  SENTENCE_PAUSE_MS,
  listVoices,
  synthesizeSentences,
  type SpokenSegment,
} from './espeak';
import { providerVoiceName, providerVoices, speakWithProvider } from './openai';
import { joinSpoken, writeWav, type Pcm } from './wav';

/**
 * The one way the server speaks: the configured OpenAI-compatible provider when there is one,
 * and the offline espeak-ng voices always. Routes and pipelines call this, never an engine.
 */

export interface SpeechVoice {
  voiceId: string;
  name: string;
  /** `zh`, `en`, or `multi` for provider voices (they read what the model knows). */
  language: string;
  gender: 'female' | 'male' | 'neutral';
  /** Which engine speaks it (Chinese label). */
  engine: string;
}

/** Provider voices first (the better ones when configured), then the offline voices. */
export function listAllVoices(tts?: TtsConfig | null): SpeechVoice[] {
  return [...(tts ? providerVoices(tts) : []), ...listVoices()];
}

export function findVoice(tts: TtsConfig | null | undefined, voiceId: string): SpeechVoice | null {
  return listAllVoices(tts).find((voice) => voice.voiceId === voiceId) ?? null;
}

export interface SpeakOptions {
  voiceId?: string;
  /** 1 = normal; 0.5 to 2. */
  speed?: number;
  pauseMs?: number;
  /** The provider settings (AppConfig.tts); absent: offline voices only. */
  tts?: TtsConfig | null;
  signal?: AbortSignal;
}

export interface SpokenNarration {
  wavPath: string;
  durationMs: number;
  /** Per-sentence times in the joined audio (the caption times). */
  segments: SpokenSegment[];
  /** The engine that actually spoke (Chinese label). */
  engine: string;
  /** Set when the asked voice could not speak and an offline voice did (Chinese). */
  note?: string;
}

/** Sentences spoken at once by the provider: parallel enough to be quick, few enough not to be throttled. */
const PROVIDER_PARALLEL = 3;

/** The offline voice standing in for one that cannot speak: Mandarin unless the text has no CJK. */
function fallbackVoice(sentences: string[]): string {
  return /[\u3400-\u9fff]/.test(sentences.join('')) ? DEFAULT_VOICE_ID : 'espeak-en-us-f';
}

async function speakWithOffline(
  sentences: string[],
  outWav: string,
  voiceId: string,
  options: SpeakOptions,
): Promise<SpokenNarration> {
  const spoken = await synthesizeSentences(sentences, outWav, {
    voiceId,
    ...(options.speed !== undefined ? { speed: options.speed } : {}),
    ...(options.pauseMs !== undefined ? { pauseMs: options.pauseMs } : {}),
  });
  return { ...spoken, engine: ESPEAK_ENGINE };
}

/**
 * Speaks each sentence and joins them with the same pause as the offline engine, answering the
 * per-sentence timings (the shape of espeak's synthesizeSentences plus the engine). A provider
 * voice that fails, or a voice unknown here (a provider no longer configured), is spoken by an
 * offline voice instead, and `note` says so.
 */
export async function speakSentences(
  sentences: string[],
  outWav: string,
  options: SpeakOptions = {},
): Promise<SpokenNarration> {
  if (sentences.length === 0) throw new Error('没有可朗读的文字');
  const voiceId = options.voiceId ?? DEFAULT_VOICE_ID;
  if (listVoices().some((voice) => voice.voiceId === voiceId)) {
    return speakWithOffline(sentences, outWav, voiceId, options);
  }
  const fallback = fallbackVoice(sentences);
  const fallbackName = listVoices().find((voice) => voice.voiceId === fallback)?.name ?? fallback;
  const tts = options.tts ?? null;
  const providerVoice = tts ? providerVoiceName(tts, voiceId) : null;
  if (!tts || !providerVoice) {
    const spoken = await speakWithOffline(sentences, outWav, fallback, options);
    return { ...spoken, note: `音色「${voiceId}」当前不可用，已改用离线音色「${fallbackName}」` };
  }
  try {
    const pcms: Pcm[] = new Array<Pcm>(sentences.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
      // After one failure the others stop asking: the whole narration falls back anyway.
      while (!failed && next < sentences.length) {
        const i = next++;
        try {
          pcms[i] = await speakWithProvider(tts, sentences[i] ?? '', {
            voice: providerVoice,
            speed: Math.min(2, Math.max(0.5, options.speed ?? 1)),
            ...(options.signal ? { signal: options.signal } : {}),
          });
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(PROVIDER_PARALLEL, sentences.length) }, worker),
    );
    const joined = joinSpoken(pcms, sentences, options.pauseMs ?? SENTENCE_PAUSE_MS);
    await mkdir(path.dirname(outWav), { recursive: true });
    const tmp = `${outWav}.part-${randomBytes(4).toString('hex')}.wav`;
    await writeWav(tmp, joined.pcm);
    await rename(tmp, outWav);
    return {
      wavPath: outWav,
      durationMs: joined.durationMs,
      segments: joined.segments,
      engine: providerVoices(tts)[0]?.engine ?? '',
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const spoken = await speakWithOffline(sentences, outWav, fallback, options);
    return { ...spoken, note: `${reason}；已改用离线音色「${fallbackName}」朗读` };
  }
}

/** Speech as the rest of the server sees it: the configured voices bound once (app.providers). */
export interface Speech {
  /** Provider voices first (the better ones when configured), then the offline voices. */
  voices(): SpeechVoice[];
  findVoice(voiceId: string): SpeechVoice | null;
  speak(
    sentences: string[],
    outWav: string,
    options?: Omit<SpeakOptions, 'tts'>,
  ): Promise<SpokenNarration>;
}

export function speechFrom(tts: TtsConfig | null | undefined): Speech {
  return {
    voices: () => listAllVoices(tts),
    findVoice: (voiceId) => findVoice(tts, voiceId),
    speak: (sentences, outWav, options = {}) =>
      speakSentences(sentences, outWav, { ...options, tts: tts ?? null }),
  };
}
