import { ProviderError } from '../providers/errors';
import type { Providers } from '../providers';
import { ESPEAK_ENGINE } from '../providers/speech/espeak';
import type { Metrics } from './metrics';

type Kind = 'text' | 'chat' | 'images' | 'videos' | 'speech' | 'transcription';

/** A failure as a label value: the ProviderError's kind (`timeout`, `rate_limited`), else `error`. */
function outcomeOf(error: unknown): string {
  if (error instanceof ProviderError)
    return error.failure.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return error instanceof Error && error.name === 'AbortError' ? 'aborted' : 'error';
}

/**
 * The providers with every call counted and timed (kol_provider_calls_total and
 * kol_provider_call_duration_seconds by provider, kind and outcome): what an alert on an
 * outside service's failures reads. Same objects otherwise; callers see no difference.
 */
export function meteredProviders(providers: Providers, metrics: Metrics): Providers {
  const record = (provider: string, kind: Kind, outcome: string, started: bigint) => {
    metrics.providerCalls.inc({ provider, kind, outcome });
    metrics.providerDuration.observe(
      { provider, kind },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  };
  async function call<T>(provider: string, kind: Kind, fn: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    try {
      const result = await fn();
      record(provider, kind, 'ok', started);
      return result;
    } catch (error) {
      record(provider, kind, outcomeOf(error), started);
      throw error;
    }
  }
  const { text, chat, images, videos, speech, transcription } = providers;
  const ttsConfigured = speech.voices().some((voice) => voice.engine !== ESPEAK_ENGINE);
  return {
    text: text && {
      ...text,
      // A stream: counted when it ends, whole or not.
      async *stream(messages, options) {
        const started = process.hrtime.bigint();
        try {
          yield* text.stream(messages, options);
          record(text.name, 'text', 'ok', started);
        } catch (error) {
          record(text.name, 'text', outcomeOf(error), started);
          throw error;
        }
      },
    },
    chat: chat && {
      ...chat,
      chat: (messages, signal) => call('openai', 'chat', () => chat.chat(messages, signal)),
    },
    images: images && {
      ...images,
      draw: (request, signal) => call(images.name, 'images', () => images.draw(request, signal)),
    },
    videos: videos && {
      ...videos,
      animate: (request, signal) =>
        call(videos.name, 'videos', () => videos.animate(request, signal)),
    },
    speech: {
      ...speech,
      // Which engine spoke is known only after: a configured voice that failed falls back to
      // the offline one (counted as the provider's `fell_back`, and the offline call's `ok`).
      async speak(sentences, outWav, options) {
        const started = process.hrtime.bigint();
        try {
          const spoken = await speech.speak(sentences, outWav, options);
          const offline = spoken.engine === ESPEAK_ENGINE;
          if (spoken.note && offline && ttsConfigured)
            record('tts', 'speech', 'fell_back', started);
          record(offline ? 'espeak' : 'tts', 'speech', 'ok', started);
          return spoken;
        } catch (error) {
          record('speech', 'speech', outcomeOf(error), started);
          throw error;
        }
      },
    },
    transcription: transcription && {
      ...transcription,
      transcribe: (audioPath, signal) =>
        call('openai', 'transcription', () => transcription.transcribe(audioPath, signal)),
    },
  };
}
