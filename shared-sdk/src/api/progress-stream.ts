import { httpClient } from '../http/client';

export interface ProgressHandlers<T> {
  /** Each change while the work goes on. */
  onProgress: (value: T) => void;
  /** It ended (or nothing was going on): the final value. The stream is closed. */
  onDone: (value: T) => void;
  /** The connection failed; the page may fall back to polling. */
  onError: (message: string) => void;
}

/**
 * Follows one of the server's progress streams (server-sent `progress` events, then `done`).
 * Answers a function that stops listening; what it follows goes on regardless.
 */
export function followProgress<T>(pathAndQuery: string, handlers: ProgressHandlers<T>): () => void {
  const base = httpClient.defaults.baseURL ?? '';
  const source = new EventSource(`${base}${pathAndQuery}`, { withCredentials: true });
  const parse = (event: MessageEvent<string>) => JSON.parse(event.data) as T;
  source.addEventListener('progress', (event) => handlers.onProgress(parse(event)));
  source.addEventListener('done', (event) => {
    source.close();
    handlers.onDone(parse(event));
  });
  source.addEventListener('error', () => {
    source.close();
    handlers.onError('进度连接中断，请刷新页面');
  });
  return () => source.close();
}
