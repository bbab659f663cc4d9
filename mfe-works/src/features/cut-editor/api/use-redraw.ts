import { useCallback, useState } from 'react';
import { genImg, getImgResult, errorMessage } from '@kol/shared-sdk';
import { isAbort, pollUntilDone, useLifeSignal } from './poll';

export interface RedrawState {
  busy: boolean;
  /** Which engine drew the last picture. */
  engine: string | null;
  error: string | null;
}

interface RedrawOptions {
  workId: number;
  taskPollMs: number;
  /** A picture was drawn for the segment with this key. */
  onDrawn: (key: string, imageUrl: string) => void;
}

/**
 * 重新绘制: a new picture for a segment from a description (`gen_img` with the work, no shot
 * index: the picture belongs to the segment, not to a shot), followed with `img_result` until
 * it ends. Pictures of different segments may be drawn side by side.
 */
export function useRedraw({ workId, taskPollMs, onDrawn }: RedrawOptions) {
  const [drawing, setDrawing] = useState<Record<string, RedrawState>>({});
  const life = useLifeSignal();

  const update = (key: string, state: RedrawState) =>
    setDrawing((all) => ({ ...all, [key]: state }));

  const redraw = useCallback(
    async (key: string, prompt: string) => {
      update(key, { busy: true, engine: null, error: null });
      try {
        const { taskId } = await genImg({ workId, prompt });
        const result = await pollUntilDone(() => getImgResult({ taskId }), taskPollMs, life());
        if (result.state === 'succeeded' && result.imageUrl) {
          update(key, { busy: false, engine: result.engine || null, error: null });
          onDrawn(key, result.imageUrl);
        } else {
          update(key, {
            busy: false,
            engine: result.engine || null,
            error: result.error ?? (result.state === 'cancelled' ? '绘制已取消' : '绘制失败'),
          });
        }
      } catch (error) {
        if (isAbort(error)) return;
        update(key, { busy: false, engine: null, error: errorMessage(error) });
      }
    },
    [workId, taskPollMs, onDrawn, life],
  );

  return { drawing, redraw };
}
