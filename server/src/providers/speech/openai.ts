import { setTimeout as sleep } from 'node:timers/promises';
import type { TtsConfig } from '../../config';
import { ProviderError } from '../errors';
import { host, httpFailure } from '../http';
import { parseWav, pcmDurationMs, type Pcm } from './wav';

/** Provider voice ids are `tts-<provider voice name>`: never equal to an espeak id (`espeak-…`). */
export const PROVIDER_VOICE_PREFIX = 'tts-';

export interface ProviderVoice {
  voiceId: string;
  name: string;
  /** Provider voices read any language the model knows. */
  language: 'multi';
  gender: 'neutral';
  engine: string;
}

/** Shown as the voice's engine: the model and where it runs. */
export const providerEngine = (config: TtsConfig) => `${config.model}（${host(config.baseUrl)}）`;

export function providerVoices(config: TtsConfig): ProviderVoice[] {
  return config.voices.map((voice) => ({
    voiceId: `${PROVIDER_VOICE_PREFIX}${voice}`,
    name: voice,
    language: 'multi',
    gender: 'neutral',
    engine: providerEngine(config),
  }));
}

/** The provider's own name of one of its voice ids, or null for an id that is not one. */
export function providerVoiceName(config: TtsConfig, voiceId: string): string | null {
  if (!voiceId.startsWith(PROVIDER_VOICE_PREFIX)) return null;
  const name = voiceId.slice(PROVIDER_VOICE_PREFIX.length);
  return config.voices.includes(name) ? name : null;
}

export interface ProviderSpeechOptions {
  /** The provider's voice name (not our voice id). */
  voice: string;
  speed: number;
  signal?: AbortSignal;
  /** Further attempts after a connection error, 429 or 5xx; default 1. */
  retries?: number;
  /** First retry waits this long, doubling; tests make it small. */
  retryBaseMs?: number;
}

/**
 * One text through an OpenAI-compatible `POST {baseUrl}/audio/speech` with
 * `response_format: "wav"`; answers the decoded PCM. Failures are ProviderErrors whose Chinese
 * message names the provider and the cause.
 */
export async function speakWithProvider(
  config: TtsConfig,
  text: string,
  options: ProviderSpeechOptions,
): Promise<Pcm> {
  const who = `配音服务 ${providerEngine(config)}`;
  const retries = options.retries ?? 1;
  for (let attempt = 1; ; attempt++) {
    const tried = attempt > 1 ? `，已重试 ${attempt - 1} 次` : '';
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let failure: ProviderError;
    try {
      const response = await fetch(`${config.baseUrl}/audio/speech`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: config.model,
          input: text,
          voice: options.voice,
          speed: options.speed,
          response_format: 'wav',
        }),
        signal,
      });
      if (response.ok) {
        const bytes = Buffer.from(await response.arrayBuffer());
        let pcm: Pcm;
        try {
          pcm = parseWav(bytes);
        } catch {
          throw new ProviderError(
            'malformed',
            `${who} 返回的不是 WAV 音频，请检查服务地址是否为 OpenAI 兼容的 /audio/speech 接口`,
          );
        }
        if (pcmDurationMs(pcm) <= 0) throw new ProviderError('empty', `${who} 返回了空的音频`);
        return pcm;
      }
      failure = httpFailure(who, response.status, await response.text().catch(() => ''), {
        keyHint: 'TTS_API_KEY',
        rejectedHint: ' TTS_MODEL 与 TTS_VOICES',
        tried,
      });
      if (response.status !== 429 && response.status < 500) throw failure;
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (options.signal?.aborted) throw error;
      if (timeout.aborted) {
        failure = new ProviderError(
          'timeout',
          `${who} 响应超时（${Math.round(config.timeoutMs / 1000)} 秒内没有返回音频${tried}），请稍后重试`,
        );
      } else {
        const cause =
          error instanceof Error
            ? ((error.cause as Error)?.message ?? error.message)
            : String(error);
        failure = new ProviderError(
          'unreachable',
          `无法连接${who}（${cause}${tried}），请检查 TTS_BASE_URL 和网络`,
        );
      }
    }
    if (attempt > retries) throw failure;
    await sleep((options.retryBaseMs ?? 500) * 2 ** (attempt - 1), undefined, {
      signal: options.signal,
    });
  }
}
