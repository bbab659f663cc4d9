import { useEffect, useRef, useState } from 'react';
import { hashKey, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { errorMessage } from '@kol/shared-sdk';

/** What a task's progress stream tells its follower. */
export interface TaskStreamHandlers<T> {
  /** A newer state of the task (a stage, a percentage, text so far). */
  update(value: T): void;
  /** The stream broke: the follower polls until the task ends or the stream is opened again. */
  fail(): void;
}

/** Opens a task's progress stream (an SDK `follow…` call); answers a function that closes it. */
export type TaskStream<T> = (handlers: TaskStreamHandlers<T>) => () => void;

export interface TaskOptions<T> {
  /** The task's cache key, e.g. `['work-result', workId]`: two pages on one task share it. */
  queryKey: QueryKey;
  /** Asks for the task's state once (a poll). */
  fetch: (signal: AbortSignal) => Promise<T>;
  /** Whether the task has ended: an ended task is asked for no more. */
  ended: (value: T) => boolean;
  /** How often the task is asked for while it runs and no stream is live. */
  intervalMs: number;
  /** False: nothing is asked (no task yet). */
  enabled?: boolean;
  /** What the page already knows of the task (e.g. the answer of the call that started it). */
  initialData?: T;
}

/**
 * The query options of one followed task, for `useQuery` (`useTask`) and for `useQueries` when
 * a page follows several side by side (pictures drawn in parallel). A failed poll is not
 * retried at once: the next one comes on the interval, so a server restart is ridden out.
 */
export function taskQueryOptions<T>(options: TaskOptions<T>, streamLive = false) {
  return {
    queryKey: options.queryKey,
    queryFn: ({ signal }: { signal: AbortSignal }) => options.fetch(signal),
    enabled: options.enabled ?? true,
    initialData: options.initialData,
    // What is known of the task is fresh for one interval: a follower that mounts meanwhile, or
    // a page that already holds an answer (`initialData`, `setQueryData`), waits for the next
    // poll instead of asking at once. The polls themselves come on the interval regardless.
    staleTime: options.intervalMs,
    retry: false,
    refetchInterval: (query: { state: { data: T | undefined } }) => {
      const value = query.state.data;
      if (value !== undefined && options.ended(value)) return false;
      return streamLive ? false : options.intervalMs;
    },
  } as const;
}

export interface FollowedTask<T> {
  /** The newest state known (undefined before the first answer). */
  data: T | undefined;
  /** Whether the task has ended. */
  ended: boolean;
  /** The first answer is awaited. */
  loading: boolean;
  /**
   * Why the task cannot be asked for now, in the SDK's words; it is asked again on the interval,
   * so the page shows this as a passing state, not an end.
   */
  error: string | null;
}

/**
 * The one way a page follows a task, in every front end: its progress stream while the stream
 * is live, polling as the fallback (before the stream's first event, after it broke, for tasks
 * that have none), until the task ends. The state lives in the query cache under `queryKey`, so
 * a second component on the same task neither polls twice nor opens a second stream, and a page
 * that starts a task puts its first answer there (`queryClient.setQueryData`).
 * `onEnd` runs once when the task is seen to end (again after it was seen running anew).
 */
export function useTask<T>(
  options: TaskOptions<T> & { stream?: TaskStream<T>; onEnd?: (value: T) => void },
): FollowedTask<T> {
  const client = useQueryClient();
  const [streamLive, setStreamLive] = useState(false);
  const query = useQuery(taskQueryOptions(options, streamLive));
  const data = query.data;
  const ended = data !== undefined && options.ended(data);
  const key = hashKey(options.queryKey);
  const enabled = options.enabled ?? true;

  // The newest callbacks, read by the stream's handlers and the end effect without reopening.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  const { stream } = options;
  const streaming = Boolean(stream) && enabled && !ended;
  useEffect(() => {
    if (!streaming || !stream) return;
    const close = stream({
      update: (value) => {
        client.setQueryData(latest.current.queryKey, value);
        setStreamLive(true);
      },
      fail: () => setStreamLive(false),
    });
    return () => {
      close();
      setStreamLive(false);
    };
    // Reopened for another task (key), not for a new function of the same one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [streaming, key, client]);

  // The key whose end was told. A task seen running again under the same key (a retry that
  // put its new state there) is a new run: its end is told again.
  const endedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!ended) {
      if (data !== undefined && endedFor.current === key) endedFor.current = null;
      return;
    }
    if (data === undefined || endedFor.current === key) return;
    endedFor.current = key;
    latest.current.onEnd?.(data);
  }, [ended, data, key]);

  return {
    data,
    ended,
    loading: enabled && data === undefined && query.isPending,
    error: query.error ? errorMessage(query.error) : null,
  };
}
