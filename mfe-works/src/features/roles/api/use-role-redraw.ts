import { useCallback, useEffect, useRef, useState } from 'react';
import { getImgResult, regenerateRoleImage, type ImageResult, errorMessage } from '@kol/shared-sdk';

/** How often a portrait being drawn is asked for (`img_result`). */
export const REDRAW_POLL_MS = 1000;

export interface RedrawState {
  /** The start call or the drawing is under way. */
  busy: boolean;
  /** The last answer of `img_result` (its engine, its error). */
  result: ImageResult | null;
  /** Why starting or following the drawing failed (the task's own failure is in `result`). */
  error: string | null;
}

const isRunning = (result: ImageResult) => result.state === 'queued' || result.state === 'running';

/**
 * 重绘形象: `re_gen_img` for a role, then `img_result` every second until it ends. The server
 * appends the portrait to the role (the first becomes its reference), so a success refreshes the
 * list. States are kept by role id, so they outlive that refresh; leaving the page stops the
 * following, not the drawing.
 */
export function useRoleRedraw(onDrawn: () => void) {
  const [states, setStates] = useState<Record<number, RedrawState>>({});
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const live = useRef(true);
  const drawnRef = useRef(onDrawn);
  useEffect(() => {
    drawnRef.current = onDrawn;
  });

  useEffect(() => {
    const current = timers.current;
    live.current = true;
    return () => {
      live.current = false;
      current.forEach(clearTimeout);
      current.clear();
    };
  }, []);

  const put = useCallback((roleId: number, state: RedrawState) => {
    if (live.current) setStates((all) => ({ ...all, [roleId]: state }));
  }, []);

  const follow = useCallback(
    (roleId: number, taskId: string) => {
      const poll = async () => {
        timers.current.delete(roleId);
        if (!live.current) return;
        try {
          const result = await getImgResult({ taskId });
          const running = isRunning(result);
          put(roleId, { busy: running, result, error: null });
          if (!live.current) return;
          if (running)
            timers.current.set(
              roleId,
              setTimeout(() => void poll(), REDRAW_POLL_MS),
            );
          else if (result.state === 'succeeded') drawnRef.current();
        } catch (reason) {
          put(roleId, { busy: false, result: null, error: errorMessage(reason) });
        }
      };
      void poll();
    },
    [put],
  );

  const redraw = useCallback(
    async (roleId: number) => {
      put(roleId, { busy: true, result: null, error: null });
      try {
        const { taskId } = await regenerateRoleImage({ roleId });
        follow(roleId, taskId);
      } catch (reason) {
        put(roleId, { busy: false, result: null, error: errorMessage(reason) });
      }
    },
    [follow, put],
  );

  return { states, redraw };
}
