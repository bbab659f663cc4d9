import { useCallback, useEffect, useRef, useState } from 'react';
import { getImgResult, type ImageResult, type TaskRef, errorMessage } from '@kol/shared-sdk';

/** How often a running picture is asked for (`img_result`). */
export const IMAGE_POLL_MS = 1500;

export interface PictureState {
  /** The call that starts the picture, then the task, is running. */
  busy: boolean;
  result: ImageResult | null;
  /** Why starting or following the picture failed (the task's own error is in `result`). */
  error: string | null;
}

/**
 * Pictures being drawn, by a key of the caller's (a role id, a shot index): each started with
 * its call (`gen_img`, `re_gen_img`), then followed with `img_result` until it ends. Pictures run
 * side by side; leaving the page stops the following, not the drawing.
 */
export function useImageTasks(onDone?: (key: string, result: ImageResult) => void) {
  const [pictures, setPictures] = useState<Record<string, PictureState>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const doneRef = useRef(onDone);
  useEffect(() => {
    doneRef.current = onDone;
  });

  useEffect(() => {
    const current = timers.current;
    return () => {
      current.forEach(clearTimeout);
      current.clear();
    };
  }, []);

  const update = (key: string, state: PictureState) =>
    setPictures((all) => ({ ...all, [key]: state }));

  const follow = useCallback((key: string, taskId: string) => {
    const poll = async () => {
      timers.current.delete(key);
      try {
        const result = await getImgResult({ taskId });
        const running = result.state === 'queued' || result.state === 'running';
        update(key, { busy: running, result, error: null });
        if (running)
          timers.current.set(
            key,
            setTimeout(() => void poll(), IMAGE_POLL_MS),
          );
        else doneRef.current?.(key, result);
      } catch (reason) {
        update(key, { busy: false, result: null, error: errorMessage(reason) });
      }
    };
    void poll();
  }, []);

  /** Starts one picture; answers false when the call was refused (the error is in its state). */
  const start = useCallback(
    async (key: string, call: () => Promise<TaskRef>): Promise<boolean> => {
      update(key, { busy: true, result: null, error: null });
      try {
        const { taskId } = await call();
        follow(key, taskId);
        return true;
      } catch (reason) {
        update(key, { busy: false, result: null, error: errorMessage(reason) });
        return false;
      }
    },
    [follow],
  );

  return { pictures, start };
}
