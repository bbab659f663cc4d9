import { useCallback, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTask } from '@kol/shared-sdk/state';

export interface AwaitedTaskOptions<T> {
  /** The cache key of the task with this id. */
  queryKey: (taskId: string) => QueryKey;
  /** Asks for the task's state once. */
  fetch: (taskId: string, signal: AbortSignal) => Promise<T>;
  /** Whether the task has ended. */
  ended: (value: T) => boolean;
  /** How often the task is asked for while it runs. */
  intervalMs: number;
}

interface Waiting<T> {
  taskId: string;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

/** The key while no task is awaited (nothing is asked under it). */
const IDLE_KEY = ['awaited-task', 'none'] as const;

/**
 * A task that an action starts and then awaits (the speech of a segment, a rewritten script),
 * one at a time: `follow(taskId)` answers a promise of the task's last state once it has ended,
 * while `useTask` asks for it on the interval. A poll that fails rejects with its error, as the
 * call that started the task would: the action says so rather than wait on a task it cannot
 * see. Following another task forgets the first. When the page goes, the asking stops and the
 * promise stays unsettled: nothing is told to a page that is no longer there.
 */
export function useAwaitedTask<T>(options: AwaitedTaskOptions<T>) {
  const client = useQueryClient();
  const [taskId, setTaskId] = useState<string | null>(null);
  const waiting = useRef<Waiting<T> | null>(null);

  // Settled from the answer itself, when it comes: the one that ends the task, or a failure.
  const settle = (id: string, done: (waiter: Waiting<T>) => void) => {
    const waiter = waiting.current;
    if (!waiter || waiter.taskId !== id) return;
    waiting.current = null;
    setTaskId(null);
    done(waiter);
  };

  useTask<T>({
    queryKey: taskId === null ? IDLE_KEY : options.queryKey(taskId),
    fetch: async (signal) => {
      const id = taskId as string;
      try {
        const value = await options.fetch(id, signal);
        if (options.ended(value)) settle(id, (waiter) => waiter.resolve(value));
        return value;
      } catch (reason) {
        // Stopped because the page went: nobody to tell.
        if (!signal.aborted) settle(id, (waiter) => waiter.reject(reason));
        throw reason;
      }
    },
    ended: options.ended,
    intervalMs: options.intervalMs,
    enabled: taskId !== null,
  });

  const { queryKey } = options;
  return useCallback(
    (id: string) =>
      new Promise<T>((resolve, reject) => {
        // Asked afresh: the action waits for the task as it is from now on, not for what an
        // earlier follow left in the cache under the same id.
        client.removeQueries({ queryKey: queryKey(id), exact: true });
        waiting.current = { taskId: id, resolve, reject };
        setTaskId(id);
      }),
    [client, queryKey],
  );
}
