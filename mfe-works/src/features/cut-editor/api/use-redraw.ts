import { useCallback, useState } from 'react';
import { genImg, getImgResult, type ImageResult, errorMessage } from '@kol/shared-sdk';
import { imageTaskKey } from '../../../lib/query-keys';
import { useParallelTasks } from '@kol/shared-sdk/state';
import { isRunningState } from './task-state';

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

/** What a finished picture task comes to for its segment. */
function endOf(result: ImageResult): RedrawState {
  const failed = result.state !== 'succeeded' || !result.imageUrl;
  return {
    busy: false,
    engine: result.engine || null,
    error: failed
      ? (result.error ?? (result.state === 'cancelled' ? '绘制已取消' : '绘制失败'))
      : null,
  };
}

/**
 * 重新绘制: a new picture for a segment from a description (`gen_img` with the work, no shot
 * index: the picture belongs to the segment, not to a shot), followed with `img_result` until
 * it ends. Pictures of different segments may be drawn side by side (one task each, followed
 * together); a poll that fails is asked again on the interval, the segment stays 绘制中….
 */
export function useRedraw({ workId, taskPollMs, onDrawn }: RedrawOptions) {
  const [drawing, setDrawing] = useState<Record<string, RedrawState>>({});
  /** The picture task of each segment being drawn, by segment key. */
  const [tasks, setTasks] = useState<Record<string, string>>({});

  const update = (key: string, state: RedrawState) =>
    setDrawing((all) => ({ ...all, [key]: state }));

  useParallelTasks<ImageResult>(
    Object.entries(tasks).map(([key, taskId]) => ({
      id: key,
      queryKey: imageTaskKey(taskId),
      fetch: (signal) => getImgResult({ taskId }, { signal }),
      ended: (result) => !isRunningState(result.state),
      intervalMs: taskPollMs,
    })),
    (key, result) => {
      setTasks(({ [key]: _done, ...rest }) => rest);
      update(key, endOf(result));
      if (result.state === 'succeeded' && result.imageUrl) onDrawn(key, result.imageUrl);
    },
  );

  const redraw = useCallback(
    async (key: string, prompt: string) => {
      setDrawing((all) => ({ ...all, [key]: { busy: true, engine: null, error: null } }));
      try {
        const { taskId } = await genImg({ workId, prompt });
        setTasks((all) => ({ ...all, [key]: taskId }));
      } catch (error) {
        setDrawing((all) => ({
          ...all,
          [key]: { busy: false, engine: null, error: errorMessage(error) },
        }));
      }
    },
    [workId],
  );

  return { drawing, redraw };
}
