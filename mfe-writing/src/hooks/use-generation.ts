import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
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

/** How long to wait between two polls of a long (`generate_async`) task. */
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
 * inputs), follows it (the stream's deltas, or polling), stops it (`cancel`), and on a reload
 * re-attaches to the task it was following.
 */
export function useGeneration<Meta>({ slot, onSettled }: Options<Meta>) {
  const key = storageKey(`writingTask_${slot}`);
  const [state, setState] = useState<GenerationState<Meta>>(() => {
    const task = readTask<Meta>(key);
    return {
      status: task ? 'running' : 'idle',
      taskId: task?.taskId ?? null,
      text: '',
      engine: '',
      error: null,
      meta: task?.meta ?? null,
    };
  });
  const settledRef = useRef(onSettled);
  useLayoutEffect(() => {
    settledRef.current = onSettled;
  });
  /** Bumped by every start, stop and unmount: events of an older run are ignored. */
  const runRef = useRef(0);
  /** What the start being accepted asked (a double click of it is ignored). */
  const startingRef = useRef<string | null>(null);
  const detachRef = useRef<(() => void) | null>(null);
  /** The text and engine of the current run, ahead of the render that shows them. */
  const liveRef = useRef({ text: '', engine: '' });

  const detach = useCallback(() => {
    detachRef.current?.();
    detachRef.current = null;
  }, []);

  const settle = useCallback(
    (run: number, outcome: GenerationOutcome, meta: Meta) => {
      if (run !== runRef.current) return;
      detach();
      sessionStorage.removeItem(key);
      liveRef.current = { text: outcome.text, engine: outcome.engine };
      setState((current) => ({ ...current, ...outcome }));
      settledRef.current?.(outcome, meta);
    },
    [detach, key],
  );

  /** Ends the run as failed, keeping the text written so far. */
  const fail = useCallback(
    (run: number, error: string, meta: Meta) => {
      settle(run, { status: 'failed', ...liveRef.current, error }, meta);
    },
    [settle],
  );

  const follow = useCallback(
    (run: number, task: RunningTask<Meta>) => {
      if (task.via === 'stream') {
        const stop = streamGeneration(task.taskId, {
          onDelta: (piece) => {
            if (run !== runRef.current) return;
            liveRef.current = { ...liveRef.current, text: liveRef.current.text + piece };
            const { text } = liveRef.current;
            setState((current) => ({ ...current, status: 'running', text }));
          },
          onDone: (result) => settle(run, outcomeOf(result), task.meta),
          onError: (message) => fail(run, message, task.meta),
        });
        detachRef.current = stop;
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const poll = async () => {
        try {
          const result = await getGenerateAsyncResult({ taskId: task.taskId });
          if (run !== runRef.current) return;
          if (TERMINAL.has(result.state)) {
            settle(run, outcomeOf(result), task.meta);
            return;
          }
          liveRef.current = { text: result.text, engine: result.engine };
          setState((current) => ({ ...current, text: result.text, engine: result.engine }));
          timer = setTimeout(() => void poll(), ASYNC_POLL_MS);
        } catch (error) {
          if (run !== runRef.current) return;
          fail(run, errorMessage(error), task.meta);
        }
      };
      detachRef.current = () => clearTimeout(timer);
      void poll();
    },
    [fail, settle],
  );

  // A reload while a task runs: ask where it is, then follow it (or show how it ended).
  useEffect(() => {
    const task = readTask<Meta>(key);
    if (!task) return undefined;
    const run = ++runRef.current;
    const read = task.via === 'stream' ? getGenResult : getGenerateAsyncResult;
    read({ taskId: task.taskId })
      .then((result) => {
        if (run !== runRef.current) return;
        if (TERMINAL.has(result.state)) {
          settle(run, outcomeOf(result), task.meta);
          return;
        }
        // The stream first sends the whole text so far, so start from nothing.
        liveRef.current = {
          engine: result.engine,
          text: task.via === 'stream' ? '' : result.text,
        };
        const live = liveRef.current;
        setState((current) => ({ ...current, ...live }));
        follow(run, task);
      })
      .catch((error: unknown) => fail(run, errorMessage(error), task.meta));
    return () => {
      runRef.current += 1;
      detach();
    };
  }, [detach, fail, follow, key, settle]);

  useEffect(
    () => () => {
      runRef.current += 1;
      detach();
    },
    [detach],
  );

  const start = useCallback(
    async (body: GenerateTextBody, meta: Meta, options: { async?: boolean } = {}) => {
      // The same start again while the first is being accepted (a double click): one action,
      // already on its way. A different one replaces it (below).
      const asked = JSON.stringify([body, options.async === true]);
      if (startingRef.current === asked) return;
      startingRef.current = asked;
      detach();
      const run = ++runRef.current;
      liveRef.current = { text: '', engine: '' };
      setState({ status: 'starting', taskId: null, text: '', engine: '', error: null, meta });
      const via = options.async ? 'async' : 'stream';
      try {
        // A key of each start's own: a start after a stop (or one replacing another) is a new
        // task even with the same text; the SDK would give it the earlier call's key for a few
        // seconds, and the server that call's task, which the stale branch below cancels.
        const { taskId } = await (via === 'async' ? generateTextAsync : generateText)(body, {
          idempotencyKey: newIdempotencyKey(),
        });
        if (run !== runRef.current) {
          // Stopped (or replaced) while the server was accepting it: do not let it run on.
          void cancelGeneration({ taskId }).catch(() => undefined);
          return;
        }
        const task: RunningTask<Meta> = { taskId, via, meta };
        sessionStorage.setItem(key, JSON.stringify(task));
        setState((current) => ({ ...current, status: 'running', taskId }));
        follow(run, task);
      } catch (error) {
        fail(run, errorMessage(error), meta);
      } finally {
        if (startingRef.current === asked) startingRef.current = null;
      }
    },
    [detach, fail, follow, key],
  );

  /** Stops following and asks the server to cancel; the text so far stays. Rejects if it refuses. */
  const stop = useCallback(async () => {
    const { taskId, meta } = state;
    runRef.current += 1;
    // A start after this is a new one, even of the same text.
    startingRef.current = null;
    detach();
    sessionStorage.removeItem(key);
    setState((current) => ({ ...current, status: 'cancelled', error: null }));
    if (meta !== null)
      settledRef.current?.({ status: 'cancelled', ...liveRef.current, error: null }, meta);
    if (taskId) await cancelGeneration({ taskId });
  }, [detach, key, state]);

  const running = state.status === 'starting' || state.status === 'running';
  return { ...state, running, start, stop };
}
