import OpenAI from 'openai';
import { ProviderError, retryAfterMs } from './errors';

/**
 * What every OpenAI-compatible service (and ComfyUI) shares: how its host is named in
 * messages, which answers are worth retrying, and how a failure becomes a ProviderError whose
 * Chinese message names the service, the cause and the setting to check.
 */

/** `host:port` of a URL for messages (the user's admin recognises the service by it). */
export const host = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

export const RETRYABLE = (status: number | undefined) =>
  status === undefined || status === 429 || status >= 500;

/** The upstream's own words from an SDK error, short, for the end of our message. */
function apiErrorDetail(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : '';
  return message ? `（服务返回：${message.slice(0, 120)}）` : '';
}

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
      const detail = apiErrorDetail(error);
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

/**
 * Runs one provider call under a time limit that covers all of it (queue, drawing, download),
 * telling the endings apart: the caller's abort (cancel, shutdown) is rethrown as it came, the
 * deadline is the provider's timeout, a failed connection says the service is unreachable.
 */
export async function withDeadline<T>(
  who: string,
  timeoutMs: number,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    return await call(AbortSignal.any([signal, deadline]));
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (deadline.aborted) {
      throw new ProviderError(
        'timeout',
        `${who} 响应超时（${Math.round(timeoutMs / 1000)} 秒内没有画完），请稍后重试`,
      );
    }
    if (error instanceof ProviderError) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new ProviderError('unreachable', `无法连接${who}（${detail}），请检查服务地址和网络`);
  }
}

/** The service's own words from an error body, short, for the end of our message. */
export function upstreamDetail(body: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    const error = parsed.error as { message?: unknown } | string | undefined;
    const text = typeof error === 'string' ? error : (error?.message ?? parsed.message);
    message = typeof text === 'string' ? text : '';
  } catch {
    message = body.trim().startsWith('<') ? '' : body.trim();
  }
  return message ? `（服务返回：${message.slice(0, 120)}）` : '';
}

export interface FailureHints {
  /** The setting holding the key, named when the service refuses access. */
  keyHint: string;
  /** What to check when the service rejects the request (a 4xx other than the above). */
  rejectedHint: string;
  /** `，已重试 N 次` when the call was retried. */
  tried?: string;
}

/**
 * A refused HTTP answer as the user reads it, by status; `headers` (the answer's) give a 429's
 * or 503's `retry-after` to whoever retries (providers/limits.ts).
 */
export function httpFailure(
  who: string,
  status: number,
  body: string,
  hints: FailureHints,
  headers?: Headers,
) {
  const wait = retryAfterMs(headers?.get('retry-after'));
  const detail = upstreamDetail(body);
  const { keyHint, rejectedHint, tried = '' } = hints;
  if (status === 401 || status === 403) {
    return new ProviderError(
      'unauthorized',
      `${who} 拒绝了访问（${status}）：API Key 无效或没有权限，请检查 ${keyHint}${detail}`,
    );
  }
  if (status === 402) {
    return new ProviderError('balance', `${who} 账户余额不足（402），请充值后重试${detail}`);
  }
  if (status === 429) {
    return new ProviderError(
      'rateLimited',
      `${who} 请求过于频繁或额度受限（429${tried}），请稍后再试${detail}`,
      wait,
    );
  }
  if (status >= 500) {
    return new ProviderError(
      'server',
      `${who} 服务出错（${status}${tried}），请稍后再试${detail}`,
      wait,
    );
  }
  return new ProviderError(
    'rejected',
    `${who} 拒绝了请求（${status}），请检查${rejectedHint}${detail}`,
  );
}
