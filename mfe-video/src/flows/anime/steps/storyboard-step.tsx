import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Flex, Progress, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useParams } from '@kol/shared-sdk/router';
import { canUseProjectType } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { failureText } from '../../../lib/stages';
import { ANIME_STEPS, ANIME_TYPE, animeQuery } from '../anime-flow';
import { speakersOf } from '../anime-script';
import { storyboardWorkKey, useStoryboard } from '../api/use-storyboard';
import { isRunning, useStoryboardTask } from '../api/use-storyboard-task';
import { StoryboardShotCard } from '../components/storyboard-shot-card';

function Storyboard({ taskId }: { taskId: string }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const client = useQueryClient();
  // The shots land on the work as the task runs, and the answer that ends it brings the
  // pictures: each answer reads the work again (once the storyboard has asked for it).
  const task = useStoryboardTask(taskId, (result) => {
    if (result.workId)
      void client.invalidateQueries({ queryKey: storyboardWorkKey(result.workId) });
  });
  const workId = task.result?.workId || null;
  const running = isRunning(task.result);
  // A task of no work (not a storyboard task): nothing to show but the way back.
  const orphan = task.result !== null && workId === null;
  const storyboard = useStoryboard(workId, !running && task.result !== null);
  const board = storyboard.board;
  const speakers = useMemo(
    () => speakersOf((board ?? []).map((shot) => ({ speaker: shot.speaker }))).map((s) => s.name),
    [board],
  );
  const images = task.result?.stages.find((stage) => stage.name === 'images');
  const withPicture = board?.filter((shot) => shot.imageUrl).length ?? 0;

  const next = async () => {
    if (await storyboard.flush()) navigate(`/video/animeAtcs/${taskId}`);
  };

  return (
    <PageFrame
      title="AI漫剧 · 分镜"
      steps={<FlowSteps steps={ANIME_STEPS} current={4} />}
      extra={
        <Typography.Text type="secondary" aria-label="保存状态">
          {storyboard.saving ? '保存中…' : '修改会自动保存'}
        </Typography.Text>
      }
      actions={
        <>
          <Button
            disabled={workId === null}
            onClick={() => navigate(`/video/animeCharacter${animeQuery(workId)}`)}
          >
            上一步
          </Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            disabled={running || !board || board.length === 0}
            loading={storyboard.saving}
            onClick={() => void next()}
          >
            下一步：成片检查
          </Button>
        </>
      }
    >
      {task.error && (
        <Alert
          type="error"
          showIcon
          title={`分镜任务加载失败：${task.error}`}
          action={
            <Button size="small" onClick={task.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {task.result && running && (
        <Flex vertical gap={4} role="status" aria-label="分镜进度">
          <Typography.Text>
            {task.result.stage === 'shots' || !board?.length
              ? '正在设计分镜…'
              : `正在绘制画面（${board.length} 个镜头）…完成后可以编辑`}
          </Typography.Text>
          <Progress percent={Math.round(images?.progress ?? task.result.progress)} />
        </Flex>
      )}
      {task.result?.state === 'failed' && (
        <Alert type="error" showIcon title={`分镜生成失败：${failureText(task.result)}`} />
      )}
      {task.result?.state === 'succeeded' && board && (
        <Typography.Text type="secondary" role="status" aria-label="分镜进度">
          {board.length} 个镜头，{withPicture} 个已有画面
        </Typography.Text>
      )}
      {storyboard.loadError && (
        <Alert type="error" showIcon title={`分镜加载失败：${storyboard.loadError}`} />
      )}
      {storyboard.saveError && (
        <Alert type="error" showIcon role="alert" title={storyboard.saveError} />
      )}
      {orphan && (
        <Alert type="error" showIcon title="这个分镜任务没有对应的作品，请从视频合成重新开始" />
      )}
      {!board && !task.error && !storyboard.loadError && !orphan && <Skeleton active />}
      {board && board.length === 0 && !running && <Empty description="还没有分镜" />}
      {board?.map((shot, index) => (
        <StoryboardShotCard
          key={shot.key}
          shot={shot}
          index={index}
          count={board.length}
          speakers={speakers}
          editable={!running}
          drawing={storyboard.drawing[shot.key]}
          onEdit={(field, value) => storyboard.edit(index, field, value)}
          onRedraw={() => void storyboard.redraw(index)}
          onMergeWithNext={() => storyboard.mergeWithNext(index)}
          onSplit={(at) => storyboard.split(index, at)}
          workId={workId}
          onClipEnded={() => {
            if (workId !== null)
              void client.invalidateQueries({ queryKey: storyboardWorkKey(workId) });
          }}
        />
      ))}
    </PageFrame>
  );
}

/**
 * `/video/animeStoryboard/:taskId` 分镜 (`:taskId` = the storyboard task): every shot with its
 * camera, scene, speaker, line and picture, editable once the pictures are drawn; progress while
 * they are.
 */
export function AnimeStoryboardStep() {
  const user = useAtomValue(currentUserAtom);
  const { taskId = '' } = useParams();
  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;
  return <Storyboard key={taskId} taskId={taskId} />;
}
