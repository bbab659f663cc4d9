import { createReadStream } from 'node:fs';
import OpenAI from 'openai';
import type { TranscribeConfig } from '../config';
import { host, openAiErrorMapper } from './http';
import { ProviderError } from './errors';

/** What a transcription answers: the whole text, and its timed segments when the service gives them. */
export interface Transcript {
  text: string;
  segments: Array<{ text: string; startMs: number; endMs: number }>;
}

/** Speech to text (reverse videos without a subtitle track). */
export interface Transcriber {
  /** Shown to the user as the engine, e.g. `whisper-1（api.openai.com）`. */
  label: string;
  transcribe(audioPath: string, signal: AbortSignal): Promise<Transcript>;
}

/** The configured OpenAI-compatible transcription service, or null (none configured). */
export function transcriberFrom(config: TranscribeConfig | null | undefined): Transcriber | null {
  return config ? createOpenAiTranscriber(config) : null;
}

/**
 * `POST {baseUrl}/audio/transcriptions` (multipart `file` + `model`,
 * `response_format=verbose_json`), as OpenAI's Whisper API and the compatible servers
 * (faster-whisper-server, whisper.cpp's server, LocalAI) speak it.
 */
export function createOpenAiTranscriber(config: TranscribeConfig): Transcriber {
  const label = `${config.model}（${host(config.baseUrl)}）`;
  const who = `语音转写服务 ${label}`;
  const mapError = openAiErrorMapper(who, config.timeoutMs);
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers take no key, but the SDK refuses to start without one.
    apiKey: config.apiKey || 'not-needed',
    // The SDK retries connection errors, 429 and 5xx itself (with backoff): one upload is
    // expensive, so twice is enough.
    maxRetries: 2,
    logLevel: 'off',
    timeout: config.timeoutMs,
  });
  return {
    label,
    async transcribe(audioPath, signal) {
      let answer;
      try {
        answer = await client.audio.transcriptions.create(
          {
            file: createReadStream(audioPath),
            model: config.model,
            response_format: 'verbose_json',
          },
          { signal },
        );
      } catch (error) {
        if (signal.aborted) throw signal.reason ?? error;
        const status = error instanceof OpenAI.APIError ? error.status : undefined;
        if (status === 401 || status === 403) {
          // The shared mapper names the text model's key; this service has its own.
          throw new ProviderError(
            'unauthorized',
            `${who} 拒绝了访问（${status}）：API Key 无效或没有权限，请检查 TRANSCRIBE_API_KEY`,
          );
        }
        throw mapError(error, false, 1);
      }
      if (typeof answer?.text !== 'string') {
        throw new ProviderError(
          'malformed',
          `${who} 返回的数据中没有文字，请检查服务地址是否为 OpenAI 兼容接口`,
        );
      }
      const segments = (answer.segments ?? [])
        .filter((s) => typeof s.text === 'string' && s.text.trim() !== '')
        .map((s) => ({
          text: s.text.trim(),
          startMs: Math.round(s.start * 1000),
          endMs: Math.round(s.end * 1000),
        }));
      return { text: answer.text.trim(), segments };
    },
  };
}
