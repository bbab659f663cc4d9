import { ProviderError } from '../../writing/providers/types';

/** What a provider is asked to draw: one picture, whole prompt already built (see prompt.ts). */
export interface ImageRequest {
  prompt: string;
  negativePrompt?: string;
  /** The picture wanted, in pixels; a provider draws its nearest supported size. */
  width: number;
  height: number;
  /** Fixed per role, so a role drawn again looks the same where the provider honours seeds. */
  seed: number;
  /** The role's reference picture (a file of the data dir), for workflows that take one. */
  referenceImagePath?: string;
}

/** An image service behind an interface; the local frame renderer is the fallback (draw.ts). */
export interface ImageProvider {
  /** Short machine name: `openai` or `comfyui`. */
  name: string;
  /** Shown to the user as the engine that drew the picture (Chinese). */
  label: string;
  /** Answers the encoded picture (PNG, JPEG or WebP); throws ProviderError in Chinese. */
  draw(request: ImageRequest, signal: AbortSignal): Promise<Buffer>;
}

/** The format of encoded picture bytes by their signature; null when they are not a picture. */
export function pictureFormat(bytes: Buffer): 'png' | 'jpeg' | 'webp' | null {
  if (bytes.length < 12) return null;
  if (bytes.readUInt32BE(0) === 0x89504e47) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}

/** `host:port` of a URL for messages (the user's admin recognises the service by it). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
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

/** A refused HTTP answer as the user reads it, by status. `keyHint`: the setting to check. */
export function httpFailure(who: string, status: number, body: string, keyHint: string) {
  const detail = upstreamDetail(body);
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
      `${who} 请求过于频繁或额度受限（429），请稍后再试${detail}`,
    );
  }
  if (status >= 500) {
    return new ProviderError('server', `${who} 服务出错（${status}），请稍后再试${detail}`);
  }
  return new ProviderError(
    'rejected',
    `${who} 拒绝了请求（${status}），请检查模型名称、尺寸与画面描述${detail}`,
  );
}
