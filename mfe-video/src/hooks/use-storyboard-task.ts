import { useEffect, useRef, useState } from 'react';
import { getWorkResult, type WorkResult, errorMessage } from '@kol/shared-sdk';

/** How often a running storyboard task is asked for its progress. */
export const STORYBOARD_POLL_MS = 1500;

export const isRunning = (result: WorkResult | null) =>
  result !== null && (result.state === 'queued' || result.state === 'running');

/**
 * The anime short's storyboard task of the address (`:taskId`): its work, state and progress
 * (`get_work_result` with the task id), asked again while it runs. `onChange` hears each answer
 * (the page reads the work again as the shots and pictures land on it).
 */
export function useStoryboardTask(taskId: string, onChange?: (result: WorkResult) => void) {
  const [result, setResult] = useState<WorkResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // The caller's latest listener: each answer reaches the page as it is now rendered.
  const listener = useRef(onChange);
  useEffect(() => {
    listener.current = onChange;
  });

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const poll = async () => {
      try {
        const answer = await getWorkResult({ taskId });
        if (!live) return;
        setResult(answer);
        setError(null);
        listener.current?.(answer);
        if (isRunning(answer)) timer = setTimeout(() => void poll(), STORYBOARD_POLL_MS);
      } catch (reason) {
        if (live) setError(errorMessage(reason));
      }
    };
    void poll();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [taskId, attempt]);

  return { result, error, reload: () => setAttempt((n) => n + 1) };
}
