import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { LlmConfig } from '../config';
import type { ChatMessage } from './chat';
import { ProviderError } from './errors';
import { host, openAiErrorMapper, RETRYABLE } from './http';

export interface OpenAiTextOptions extends LlmConfig {
  /** First retry waits this long, doubling each time (with jitter); tests make it small. */
  retryBaseMs?: number;
}

/** A model writing text as it goes (writing's copy), one piece after another. */
export interface TextModel {
  /** Short machine name: `openai`. */
  name: string;
  /** Shown to the user as the engine that wrote the text (Chinese). */
  label: string;
  stream(
    messages: ChatMessage[],
    options: { maxTokens: number; signal: AbortSignal },
  ): AsyncIterable<string>;
}

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, DeepSeek, Qwen compatible mode,
 * Ollama, vLLM) with `stream: true`. Our own timeout covers the wait for the first token and
 * every gap between tokens (the SDK's covers only the response headers); our own retry, before
 * the first token only, so a retried attempt never repeats text the user already saw.
 */
export function createOpenAiTextModel(options: OpenAiTextOptions): TextModel {
  const name = `${options.model}（${host(options.baseUrl)}）`;
  const who = `文本模型服务 ${name}`;
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // Local servers (Ollama, vLLM) take no key, but the SDK refuses to start without one.
    apiKey: options.apiKey || 'not-needed',
    maxRetries: 0,
    // Failures reach the user through mapError; the SDK's own console lines would only be noise.
    logLevel: 'off',
    timeout: options.timeoutMs * 10,
  });
  const retryBaseMs = options.retryBaseMs ?? 800;
  const mapError = openAiErrorMapper(who, options.timeoutMs);

  return {
    name: 'openai',
    label: name,
    async *stream(messages: ChatMessage[], { maxTokens, signal }) {
      const maxAttempts = 1 + options.maxRetries;
      for (let attempt = 1; ; attempt++) {
        const controller = new AbortController();
        let timedOut = false;
        let timer: NodeJS.Timeout | undefined;
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, options.timeoutMs);
        };
        const onAbort = () => controller.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        let yielded = 0;
        try {
          arm();
          const stream = await client.chat.completions.create(
            {
              model: options.model,
              messages,
              stream: true,
              max_tokens: maxTokens,
            },
            { signal: controller.signal },
          );
          for await (const chunk of stream) {
            arm();
            const piece = chunk.choices?.[0]?.delta?.content;
            if (typeof piece === 'string' && piece.length > 0) {
              yielded += piece.length;
              yield piece;
            }
          }
          // The SDK ends the iteration quietly when its signal aborts: say why it ended.
          signal.throwIfAborted();
          if (timedOut) throw mapError(null, true, attempt);
          if (yielded === 0) {
            throw new ProviderError('empty', `${who} 返回了空内容，请重试或换一个模型`);
          }
          return;
        } catch (error) {
          if (signal.aborted) throw signal.reason ?? error;
          if (error instanceof ProviderError) throw error;
          const status = error instanceof OpenAI.APIError ? error.status : undefined;
          const canRetry =
            yielded === 0 &&
            attempt < maxAttempts &&
            !timedOut &&
            (error instanceof OpenAI.APIConnectionError ||
              (status !== undefined && RETRYABLE(status)));
          if (!canRetry) throw mapError(error, timedOut, attempt);
          const backoff = retryBaseMs * 2 ** (attempt - 1);
          await sleep(backoff / 2 + Math.random() * (backoff / 2), undefined, { signal });
        } finally {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
        }
      }
    },
  };
}
