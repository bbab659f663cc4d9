import { useState } from 'react';
import { App, Button, Flex, Typography } from 'antd';
import {
  QUALITY_ACTION_LABELS,
  errorMessage,
  genClip,
  getClipResult,
  type ClipResult,
  type WorkDetail,
} from '@kol/shared-sdk';
import { useParallelTasks } from '@kol/shared-sdk/state';
import { useSingleFlight } from '@kol/shared-sdk/ui';

/** How often a running clip is asked for (`clip_result`): clips take minutes, not seconds. */
export const CLIP_POLL_MS = 3000;

const running = (result: ClipResult) => result.state === 'queued' || result.state === 'running';

/** The shots among `indexes` whose clip the video service failed and that have none since. */
export function shotsWithoutClip(work: WorkDetail, indexes: readonly number[]): number[] {
  return indexes.filter((i) => {
    const shot = work.shots[i];
    return shot !== undefined && shot.clipError !== undefined && !shot.clipUrl;
  });
}

interface RegenerateClipsProps {
  workId: number;
  /** The shots still without their clip (`shotsWithoutClip` of the work as last read). */
  pending: readonly number[];
  /** Said once nothing is pending any more (the clips were made again); nothing when absent. */
  doneText?: string;
  /** A clip task ended (made or failed): the caller reads the work again. */
  onEnded: () => void;
}

/**
 * 重新生成动态镜头: each pending shot's clip made again from its picture (`gen_clip`, no
 * count), followed until it ends; the pending shots come from the work, so a reload knows which
 * are still to do, and the next render of the video shows the new clips.
 */
export function RegenerateClips({ workId, pending, doneText, onEnded }: RegenerateClipsProps) {
  const { message } = App.useApp();
  const [started, setStarted] = useState<Array<{ index: number; taskId: string }>>([]);

  const followed = useParallelTasks<ClipResult, boolean>(
    started.map(({ index, taskId }) => ({
      id: String(index),
      queryKey: ['clip-task', taskId],
      fetch: (signal) => getClipResult({ taskId }, { signal }),
      ended: (result) => !running(result),
      intervalMs: CLIP_POLL_MS,
    })),
    (id, result) => {
      if (result.state === 'failed') {
        void message.error(
          `第 ${Number(id) + 1} 镜的动态镜头生成失败：${result.error ?? '未知原因'}`,
        );
      }
      onEnded();
    },
    (tasks) => [...tasks.values()].some((task) => !task.ended),
  );

  const start = useSingleFlight(async () => {
    const made: Array<{ index: number; taskId: string }> = [];
    for (const index of pending) {
      try {
        const { taskId } = await genClip({ workId, shotIndex: index });
        made.push({ index, taskId });
      } catch (error) {
        void message.error(`第 ${index + 1} 镜：${errorMessage(error)}`);
      }
    }
    setStarted(made);
  });

  if (pending.length === 0) {
    return doneText ? <Typography.Text type="secondary">{doneText}</Typography.Text> : null;
  }
  const busy = start.busy || followed;
  return (
    <Flex align="center" gap={8} wrap>
      <Button size="small" loading={busy} onClick={() => void start.run()}>
        {QUALITY_ACTION_LABELS.regenerateClips}
      </Button>
      {busy && <Typography.Text type="secondary">动态镜头生成中，需要几分钟</Typography.Text>}
    </Flex>
  );
}
