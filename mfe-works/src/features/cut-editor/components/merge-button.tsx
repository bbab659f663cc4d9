import { useState } from 'react';
import { App, Button, Flex, Tooltip, Typography } from 'antd';
import { useSetAtom } from 'jotai';
import { VideoCameraOutlined } from '@ant-design/icons';
import {
  endCutVideo,
  getUserLimitInfo,
  reSendMergeRequest,
  remainingMerges,
  sendMergeRequest,
  videoTypeLabel,
  type ProjectType,
  errorMessage,
} from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';

interface MergeButtonProps {
  workId: number;
  type: ProjectType;
  /** Segments without audio: the merge waits until every one is spoken. */
  unspoken: number;
  /** A merge or a speech task runs. */
  busy: boolean;
  /** The last merge (started on this page) failed: send it again with re_send_merge_request. */
  resend: boolean;
  /** Saves the edits first; false: no merge. */
  flush: () => Promise<boolean>;
  /** Speaks the segments without audio, and only those: the others keep their voices. */
  onSpeakUnspoken: () => void;
  onStarted: (taskId: string) => void;
}

/**
 * 重新合成: until every segment is spoken, 为未配音片段配音 speaks the ones without audio (a
 * caption changed: that segment alone, every other keeps the voice the video gave it). Then it
 * finishes the cut (`end_cut_video`) and merges it
 * (`send_merge_request`, or `re_send_merge_request` after a failed merge), after a confirmation
 * that says it spends one merge count of the type and how many are left. The dialog spins while
 * it starts and stays open on a refusal (the server's message is shown).
 */
export function MergeButton({
  workId,
  type,
  unspoken,
  busy,
  resend,
  flush,
  onSpeakUnspoken,
  onStarted,
}: MergeButtonProps) {
  const { message, modal } = App.useApp();
  const setLimits = useSetAtom(usageLimitsAtom);
  const [preparing, setPreparing] = useState(false);
  const label = videoTypeLabel(type);

  const merge = async () => {
    await endCutVideo({ workId });
    const { taskId } = resend
      ? await reSendMergeRequest({ workId })
      : await sendMergeRequest({ workId });
    // A count was spent: the shell and the other pages see the new figures.
    getUserLimitInfo(undefined).then(setLimits, () => undefined);
    onStarted(taskId);
  };

  const ask = async () => {
    setPreparing(true);
    try {
      if (!(await flush())) {
        void message.error('修改还没有保存，请先重试保存');
        return;
      }
      let left: number | null;
      try {
        const limits = await getUserLimitInfo(undefined);
        setLimits(limits);
        left = remainingMerges(limits, type);
      } catch (error) {
        void message.error(`次数查询失败：${errorMessage(error)}`);
        return;
      }
      if (left === null) {
        void message.error(`「${label}」没有合成步骤`);
        return;
      }
      // Awaited with `then`: antd then keeps a refused onOk to itself (the dialog stays open).
      void modal
        .confirm({
          title: '重新合成视频',
          content: (
            <Flex vertical gap={4}>
              <span>
                {left > 0
                  ? `将消耗 1 次「${label}」合成次数（当前剩余 ${left} 次）。`
                  : `「${label}」的合成次数已用完（剩余 0 次），请联系管理员增加次数。`}
              </span>
              <Typography.Text type="secondary">
                合成期间可以留在本页查看进度；失败的合成会退回次数。
              </Typography.Text>
            </Flex>
          ),
          okText: '确认合成',
          cancelText: '取消',
          okButtonProps: { disabled: left <= 0 },
          onOk: async () => {
            try {
              await merge();
            } catch (error) {
              void message.error(errorMessage(error));
              throw error;
            }
          },
        })
        .then(
          () => undefined,
          () => undefined,
        );
    } finally {
      setPreparing(false);
    }
  };

  if (unspoken > 0)
    return (
      <Flex align="center" gap={8} wrap>
        <Tooltip title="合成前每个片段都需要配音">
          <Button icon={<VideoCameraOutlined aria-hidden />} disabled>
            还有 {unspoken} 个片段未配音
          </Button>
        </Tooltip>
        <Button type="primary" onClick={onSpeakUnspoken} disabled={busy}>
          为未配音片段配音
        </Button>
      </Flex>
    );

  return (
    <Button
      type="primary"
      icon={<VideoCameraOutlined aria-hidden />}
      loading={preparing}
      disabled={busy}
      onClick={() => void ask()}
    >
      重新合成
    </Button>
  );
}
