import { App, Tooltip } from 'antd';
import { useAtom } from 'jotai';
import {
  genVideo,
  getUserLimitInfo,
  isApiError,
  remainingGenerations,
  type ProjectType,
  errorMessage,
} from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { ConfirmButton } from '../../../components/confirm-button';
import { usePhoneLayout } from '../../../lib/phone';
import { videoTypeLabel } from '@kol/shared-sdk';

interface GenerateVideoButtonProps {
  /**
   * The work to render: its id; null while the page has none yet (the button then refuses); or,
   * for a page that makes (or saves) its work on this step, the function 确认生成 calls to do
   * it, answering the work's id. The work is made only once the creator has confirmed, so
   * 取消 leaves nothing behind. That function answers null when its save over the work was
   * stopped by the person (a change made elsewhere, and they chose 载入最新内容): nothing is
   * rendered and the dialog closes on the page showing the newest work.
   */
  workId: number | null | (() => Promise<number | null>);
  type: ProjectType;
  /**
   * Runs before the dialog opens (checks, saving edits of a work that exists); false stops the
   * generation. It must make no work: that is `workId`'s, after the confirmation.
   */
  prepare?: () => Promise<boolean>;
  onStarted: (taskId: string, workId: number) => void;
}

/**
 * 生成视频: says what it spends (one count of the type, and how many are left) and asks before
 * it spends; the server checks the words and the count again before it accepts. A double click
 * asks once and starts once (ConfirmButton), and the SDK sends a repeat of the start with the
 * same idempotency key.
 */
export function GenerateVideoButton({
  workId,
  type,
  prepare,
  onStarted,
}: GenerateVideoButtonProps) {
  const { message } = App.useApp();
  const phone = usePhoneLayout();
  const [limits, setLimits] = useAtom(usageLimitsAtom);
  const label = videoTypeLabel(type);
  const left = limits ? remainingGenerations(limits, type) : null;
  const usedUp = left !== null && left <= 0;

  const start = async () => {
    try {
      if (typeof workId !== 'function' && workId === null)
        throw new Error('请先保存作品再生成视频');
      const id = typeof workId === 'function' ? await workId() : workId;
      // The person chose the newest work over their edit: they look at it before rendering.
      if (id === null) return;
      const { taskId } = await genVideo({ workId: id });
      // The count was spent: the shell and the other pages see the new figures.
      getUserLimitInfo(undefined).then(setLimits, () => undefined);
      onStarted(taskId, id);
    } catch (error) {
      void message.error(
        error instanceof Error && !isApiError(error) ? error.message : errorMessage(error),
      );
      throw error;
    }
  };

  return (
    <Tooltip title={usedUp ? `${label}的生成次数已用完` : undefined}>
      <ConfirmButton
        type="primary"
        size={phone ? 'large' : 'middle'}
        disabled={usedUp}
        prepare={prepare}
        confirmTitle="生成视频"
        confirmContent={`将消耗 1 次「${label}」生成次数${left !== null ? `（当前剩余 ${left} 次）` : ''}。生成失败会自动退回次数；中途取消不退回。`}
        okText="确认生成"
        onConfirm={start}
      >
        生成视频{left !== null ? `（剩余 ${left} 次）` : ''}
      </ConfirmButton>
    </Tooltip>
  );
}
