import { useCallback, useEffect, useRef } from 'react';
import type { TaskState } from '@kol/shared-sdk';

export const isRunningState = (state: TaskState) => state === 'queued' || state === 'running';

/**
 * Asks `read` every `everyMs` until what it answers has ended (or `signal` aborts, or a read
 * fails). Answers the final answer; a failed read rejects.
 */
export function pollUntilDone<T extends { state: TaskState }>(
  read: () => Promise<T>,
  everyMs: number,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      if (timer) clearTimeout(timer);
      reject(new DOMException('stopped', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
    const ask = () => {
      read().then(
        (answer) => {
          if (signal.aborted) return;
          if (isRunningState(answer.state)) timer = setTimeout(ask, everyMs);
          else {
            signal.removeEventListener('abort', stop);
            resolve(answer);
          }
        },
        (reason: unknown) => {
          signal.removeEventListener('abort', stop);
          if (!signal.aborted) reject(reason);
        },
      );
    };
    timer = setTimeout(ask, everyMs);
  });
}

export const isAbort = (error: unknown) =>
  error instanceof DOMException && error.name === 'AbortError';

/**
 * The signal of the component's life: aborted when it unmounts (a fresh one for each mount, so
 * a development double mount does not leave it aborted). Read it in handlers, not in render.
 */
export function useLifeSignal(): () => AbortSignal {
  const controller = useRef<AbortController | null>(null);
  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    return () => current.abort();
  }, []);
  return useCallback(() => {
    controller.current ??= new AbortController();
    return controller.current.signal;
  }, []);
}
