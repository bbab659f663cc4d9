import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { LlmConfig } from '../../config';
import { buildMessages } from './prompts';
import { ProviderError, type TextProvider, type TextRequest } from './types';

export interface OpenAiProviderOptions extends LlmConfig {
  /** First retry waits this long, doubling each time (with jitter); tests make it small. */
  retryBaseMs?: number;
}

export const host = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

/** The upstream's own words, short, for the end of our message (helps whoever configures it). */
function upstreamDetail(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : '';
  return message ? `（服务返回：${message.slice(0, 120)}）` : '';
}

export const RETRYABLE = (status: number | undefined) =>
  status === undefined || status === 429 || status >= 500;

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, DeepSeek, Qwen compatible mode,
 * Ollama, vLLM) with `stream: true`. Our own timeout covers the wait for the first token and
 * every gap between tokens (the SDK's covers only the response headers); our own retry, before
 * the first token only, so a retried attempt never repeats text the user already saw.
 */
/**
 * Maps an OpenAI SDK failure to a ProviderError whose Chinese message names the model and the
 * host (`who`) and says what to do. Shared by the streaming writer and the JSON chat model.
 */
export function openAiErrorMapper(who: string, timeoutMs: number) {
  return function mapError(error: unknown, timedOut: boolean, attempts: number): ProviderError {
    const tried = attempts > 1 ? `，已重试 ${attempts - 1} 次` : '';
    if (timedOut || error instanceof OpenAI.APIConnectionTimeoutError) {
      return new ProviderError(
        'timeout',
        `${who} 响应超时（${Math.round(timeoutMs / 1000)} 秒内没有返回内容${tried}），请稍后重试`,
      );
    }
    if (error instanceof OpenAI.APIConnectionError) {
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      return new ProviderError(
        'unreachable',
        `无法连接${who}（${cause}${tried}），请检查服务地址和网络`,
      );
    }
    if (error instanceof OpenAI.APIError) {
      const detail = upstreamDetail(error);
      switch (error.status) {
        case 401:
        case 403:
          return new ProviderError(
            'unauthorized',
            `${who} 拒绝了访问（${error.status}）：API Key 无效或没有权限，请检查 LLM_API_KEY${detail}`,
          );
        case 402:
          return new ProviderError('balance', `${who} 账户余额不足（402），请充值后重试${detail}`);
        case 429:
          return new ProviderError(
            'rateLimited',
            `${who} 请求过于频繁或额度受限（429${tried}），请稍后再试${detail}`,
          );
        default:
          if ((error.status ?? 0) >= 500) {
            return new ProviderError(
              'server',
              `${who} 服务出错（${error.status}${tried}），请稍后再试${detail}`,
            );
          }
          return new ProviderError(
            'rejected',
            `${who} 拒绝了请求（${error.status ?? '未知状态'}），请检查模型名称与参数${detail}`,
          );
      }
    }
    if (error instanceof SyntaxError) {
      return new ProviderError(
        'malformed',
        `${who} 返回的数据无法解析，请检查服务地址是否为 OpenAI 兼容接口`,
      );
    }
    const cause = error instanceof Error ? error.message : String(error);
    return new ProviderError('unreachable', `${who} 的连接中断了（${cause}），请重试`);
  };
}

export function createOpenAiProvider(options: OpenAiProviderOptions): TextProvider {
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
    async *stream(request: TextRequest, signal: AbortSignal) {
      const messages = buildMessages(request);
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
              // Room for the asked length in Chinese (about one token per character), and more.
              max_tokens: Math.min(8192, Math.round(request.length * 2) + 200),
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
