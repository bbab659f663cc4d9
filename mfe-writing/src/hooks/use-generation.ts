import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  cancelGeneration,
  generateText,
  generateTextAsync,
  getGenResult,
  getGenerateAsyncResult,
  newIdempotencyKey,
  storageKey,
  streamGeneration,
  type GenerateTextBody,
  type TextResult,
  errorMessage,
} from '@kol/shared-sdk';
import { useTask, type TaskStream } from '@kol/shared-sdk/state';

/** How long to wait between two polls of a generation (`generate_async`, or a broken stream). */
export const ASYNC_POLL_MS = 1000;

export type GenerationStatus =
  'idle' | 'starting' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** How a generation ended: its final text (or the text so far), engine and error. */
export interface GenerationOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  text: string;
  engine: string;
  error: string | null;
}

export interface GenerationState<Meta> {
  status: GenerationStatus;
  taskId: string | null;
  /** The text written so far (the whole text once it ended). */
  text: string;
  /** Which engine writes it; empty until the server said. */
  engine: string;
  error: string | null;
  /** What the page attached to this run (its mode, the text it continues, …). */
  meta: Meta | null;
}

/** The task a page follows, kept in session storage so a reload re-attaches to it. */
interface RunningTask<Meta> {
  taskId: string;
  /** `stream`: generate + server-sent events; `async`: generate_async + polling. */
  via: 'stream' | 'async';
  meta: Meta;
}

const TERMINAL = new Set<TextResult['state']>(['succeeded', 'failed', 'cancelled']);

/** The query key of a generation task: its state (text so far, engine) lives there. */
export const writingTaskKey = (taskId: string | null) => ['writing-task', taskId] as const;

function readTask<Meta>(key: string): RunningTask<Meta> | null {
  try {
    const raw = sessionStorage.getItem(key);
    const task = raw ? (JSON.parse(raw) as RunningTask<Meta>) : null;
    return task && typeof task.taskId === 'string' ? task : null;
  } catch {
    return null;
  }
}

function outcomeOf(result: TextResult): GenerationOutcome {
  const status =
    result.state === 'succeeded' || result.state === 'cancelled' ? result.state : 'failed';
  return {
    status,
    text: result.text,
    engine: result.engine,
    error: status === 'failed' ? (result.error ?? '生成失败，请重试') : null,
  };
}

interface Options<Meta> {
  /** Names the session-storage slot of the running task: one per page. */
  slot: string;
  /** Called once when a run ends, however it ends (not when the page leaves). */
  onSettled?: (outcome: GenerationOutcome, meta: Meta) => void;
}

/**
 * One generation at a time for a page: starts it (`generate`, or `generate_async` for long
 * inputs), follows it with `useTask` (the stream's deltas while the stream is live; polling
 * `gen_result` when it broke, or `get_generate_async_result` for a long one), stops it
 * (`cancel`), and on a reload re-attaches to the task it was following: it asks where the task
 * is first, then opens the stream only if it still runs. A poll that fails is asked again on
 * the interval.
 */
export function useGeneration<Meta>({ slot, onSettled }: Options<Meta>) {
  const key = storageKey(`writingTask_${slot}`);
  const client = useQueryClient();
  /** The task followed; null when none runs (or a start is being accepted). */
  const [task, setTask] = useState<RunningTask<Meta> | null>(() => readTask<Meta>(key));
  /** What is shown while no task is followed: a start being accepted, or how the last run ended. */
  const [shown, setShown] = useState<GenerationState<Meta>>({
    status: 'idle',
    taskId: null,
    text: '',
    engine: '',
    error: null,
    meta: null,
  });
  const settledRef = useRef(onSettled);
  useLayoutEffect(() => {
    settledRef.current = onSettled;
  });
  /** Bumped by every start and stop: a start the server accepts after a newer one is cancelled. */
  const runRef = useRef(0);
  /** What the start being accepted asked (a double click of it is ignored). */
  const startingRef = useRef<string | null>(null);

  const taskId = task?.taskId ?? null;
  const queryKey = writingTaskKey(taskId);

  /** The stream's deltas, each the text so far; the stream starts with the whole text so far. */
  const stream: TaskStream<TextResult> = ({ update, fail }) => {
    let text = '';
    const current = () =>
      client.getQueryData<TextResult>(queryKey) ?? {
        taskId: taskId ?? '',
        state: 'running' as const,
        text: '',
        engine: '',
        error: null,
      };
    return streamGeneration(taskId ?? '', {
      onDelta: (piece) => {
        text += piece;
        update({ ...current(), state: 'running', text });
      },
      onDone: update,
      // The connection dropped, or the server said the run failed: the task is asked where it
      // is at once (the server keeps a failure and the text so far before it tells it), then on
      // the interval until it ends.
      onError: () => {
        fail();
        void client.refetchQueries({ queryKey, exact: true });
      },
    });
  };

  const followed = useTask<TextResult>({
    queryKey,
    enabled: task !== null,
    fetch: (signal) =>
      (task?.via === 'async' ? getGenerateAsyncResult : getGenResult)(
        { taskId: taskId ?? '' },
        { signal },
      ),
    ended: (result) => TERMINAL.has(result.state),
    intervalMs: ASYNC_POLL_MS,
    // After a reload the task is asked for first: a task that ended meanwhile opens no stream.
    ...(task?.via === 'stream' && client.getQueryData(queryKey) !== undefined ? { stream } : {}),
    onEnd: (result) => {
      if (!task) return;
      const outcome = outcomeOf(result);
      sessionStorage.removeItem(key);
      setShown({ ...outcome, taskId: task.taskId, meta: task.meta });
      setTask(null);
      settledRef.current?.(outcome, task.meta);
    },
  });

  const state: GenerationState<Meta> = task
    ? {
        status: 'running',
        taskId: task.taskId,
        text: followed.data?.text ?? '',
        engine: followed.data?.engine ?? '',
        error: null,
        meta: task.meta,
      }
    : shown;

  /** Ends a run that could not start as failed (nothing was written). */
  const refused = useCallback(
    (error: unknown, meta: Meta) => {
      sessionStorage.removeItem(key);
      const outcome: GenerationOutcome = {
        status: 'failed',
        text: '',
        engine: '',
        error: errorMessage(error),
      };
      setShown({ ...outcome, taskId: null, meta });
      settledRef.current?.(outcome, meta);
    },
    [key],
  );

  const start = useCallback(
    async (body: GenerateTextBody, meta: Meta, options: { async?: boolean } = {}) => {
      // The same start again while the first is being accepted (a double click): one action,
      // already on its way. A different one replaces it (below).
      const asked = JSON.stringify([body, options.async === true]);
      if (startingRef.current === asked) return;
      startingRef.current = asked;
      const run = ++runRef.current;
      setTask(null);
      setShown({ status: 'starting', taskId: null, text: '', engine: '', error: null, meta });
      const via = options.async ? 'async' : 'stream';
      try {
        // A key of each start's own: a start after a stop (or one replacing another) is a new
        // task even with the same text; the SDK would give it the earlier call's key for a few
        // seconds, and the server that call's task, which the stale branch below cancels.
        const started = await (via === 'async' ? generateTextAsync : generateText)(body, {
          idempotencyKey: newIdempotencyKey(),
        });
        if (run !== runRef.current) {
          // Stopped (or replaced) while the server was accepting it: do not let it run on.
          void cancelGeneration({ taskId: started.taskId }).catch(() => undefined);
          return;
        }
        const next: RunningTask<Meta> = { taskId: started.taskId, via, meta };
        sessionStorage.setItem(key, JSON.stringify(next));
        // Started here, so known to run: its stream opens at once (a long one is asked at once).
        if (via === 'stream')
          client.setQueryData<TextResult>(writingTaskKey(started.taskId), {
            taskId: started.taskId,
            state: 'running',
            text: '',
            engine: '',
            error: null,
          });
        setTask(next);
      } catch (error) {
        if (run === runRef.current) refused(error, meta);
      } finally {
        if (startingRef.current === asked) startingRef.current = null;
      }
    },
    [client, key, refused],
  );

  /** Stops following and asks the server to cancel; the text so far stays. Rejects if it refuses. */
  const stop = async () => {
    const { taskId: stopped, meta, text, engine } = state;
    runRef.current += 1;
    // A start after this is a new one, even of the same text.
    startingRef.current = null;
    sessionStorage.removeItem(key);
    setTask(null);
    setShown({ status: 'cancelled', taskId: stopped, text, engine, error: null, meta });
    if (meta !== null)
      settledRef.current?.({ status: 'cancelled', text, engine, error: null }, meta);
    if (stopped) await cancelGeneration({ taskId: stopped });
  };

  const running = state.status === 'starting' || state.status === 'running';
  return { ...state, running, start, stop };
}
