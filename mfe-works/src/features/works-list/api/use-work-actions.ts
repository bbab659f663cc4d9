import { App } from 'antd';
import {
  CreationFlag,
  QUOTA_TYPE_LABELS,
  QUOTA_TYPE_OF_PROJECT,
  deleteWork,
  getWorkInfo,
  regenerateVideo,
  remainingGenerations,
  saveVideoInfo,
  updateVideoStatus,
  type ProjectType,
  type UsageLimits,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';

/** The name of the count a work's generation spends (AI漫剧 spends the comic clip's). */
export function quotaLabelOf(type: number): string {
  return QUOTA_TYPE_LABELS[QUOTA_TYPE_OF_PROJECT[type as ProjectType]];
}

interface Options {
  /** Fresh counts, so a confirmation states what is really left. */
  refreshLimits: () => Promise<UsageLimits>;
  /** The work changed where it is (regenerated, renamed): fetch the page again. */
  onChanged: () => void;
  /** The work left the page (deleted, or moved to the other tab). */
  onLeft: () => void;
}

/**
 * The card actions that change a work, each through the SDK, each telling the user the result in
 * Chinese (the server's message on a refusal). Confirmations go through `App.useApp().modal`:
 * awaiting one makes antd keep it open, without an unhandled rejection, when its action fails
 * (spec section 4: loading while confirming, closed on success, as it was on failure).
 */
export function useWorkActions({ refreshLimits, onChanged, onLeft }: Options) {
  const { message, modal } = App.useApp();
  const revisionedSave = useRevisionedSave();

  /** Runs one call; a refusal is shown and thrown again, so a dialog around it stays open. */
  const attempt = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
    void message.success(done);
  };

  /** Regenerating renders the whole video again, so it spends a count: ask, stating it. */
  const regenerate = async (work: WorkSummary) => {
    const label = quotaLabelOf(work.type);
    let left: number;
    try {
      left = remainingGenerations(await refreshLimits(), work.type as ProjectType);
    } catch (error) {
      void message.error(errorMessage(error));
      return;
    }
    if (left <= 0) {
      void message.error(`「${label}」的生成次数已用完，无法重新生成`);
      return;
    }
    await modal.confirm({
      title: `重新生成「${work.title}」？`,
      content: `将从第一步重新制作这个视频，消耗 1 次「${label}」生成次数（当前剩余 ${left} 次）。`,
      okText: '重新生成',
      cancelText: '取消',
      onOk: async () => {
        await attempt(() => regenerateVideo({ workId: work.workId }), '已开始重新生成');
        // The count just spent: the shared counts follow, a failure only leaves them stale.
        refreshLimits().catch(() => undefined);
        onChanged();
      },
    });
  };

  const rename = async (work: WorkSummary, title: string) => {
    // Based on the revision the list was read at: a title changed elsewhere since is asked
    // about, any other change (a picture drawn) is kept.
    await attempt(
      () =>
        revisionedSave({
          base: { title: work.title },
          edited: { title },
          revision: work.revision,
          save: (value, revision) => saveVideoInfo({ workId: work.workId, revision, ...value }),
          load: async () => {
            const newest = await getWorkInfo({ workId: work.workId });
            return { value: { title: newest.title }, revision: newest.revision };
          },
        }),
      '已重命名',
    );
    onChanged();
  };

  const move = async (work: WorkSummary) => {
    const toCreation = work.flag !== CreationFlag.creation;
    try {
      await attempt(
        () =>
          updateVideoStatus({
            workId: work.workId,
            flag: toCreation ? CreationFlag.creation : CreationFlag.draft,
          }),
        toCreation ? '已移到作品' : '已移到草稿',
      );
    } catch {
      // Said by attempt; the work stays where it was.
      return;
    }
    onLeft();
  };

  const remove = async (work: WorkSummary) => {
    await modal.confirm({
      title: `删除「${work.title}」？`,
      content: '删除后无法恢复。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await attempt(() => deleteWork({ workId: work.workId }), '已删除');
        onLeft();
      },
    });
  };

  return { regenerate, rename, move, remove };
}
