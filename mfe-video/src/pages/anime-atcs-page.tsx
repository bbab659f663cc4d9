import { Alert, Button, Flex, Skeleton, Statistic } from 'antd';
import { useAtomValue } from 'jotai';
import { useParams } from '@kol/shared-sdk/router';
import { canUseProjectType } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { AnimeFlowSteps } from '../components/flow-steps';
import { NoPermission } from '../components/no-permission';
import { PageFrame } from '../components/page-frame';
import { useShotVoices } from '../features/anime-storyboard/api/use-shot-voices';
import { CheckShotRow } from '../features/anime-storyboard/components/check-shot-row';
import { shotWarnings } from '../features/anime-storyboard/shot-warnings';
import { GenerateVideoButton } from '../features/generate-video/components/generate-video-button';
import { useAnimeWork } from '../hooks/use-anime-work';
import { isRunning, useStoryboardTask } from '../hooks/use-storyboard-task';
import { useUsageLimits } from '../hooks/use-usage-limits';
import { ANIME_TYPE } from '../lib/anime-flow';
import { usePageNavigate, usePhoneLayout } from '../lib/phone';

function FinalCheck({ taskId }: { taskId: string }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  useUsageLimits();
  const task = useStoryboardTask(taskId);
  const workId = task.result?.workId || null;
  const running = isRunning(task.result);
  // A task of no work (not a storyboard task): nothing to show but the way back.
  const orphan = task.result !== null && workId === null;
  const { work, error, reload } = useAnimeWork(running ? null : workId);
  const voices = useShotVoices(work);
  const shots = work?.shots ?? [];

  const spoken = shots.map((shot) => voices[shot.index]);
  const measured = spoken.every((voice) => voice?.state === 'done' || voice?.state === 'failed');
  const totalMs = spoken.reduce((sum, voice) => sum + (voice?.durationMs ?? 0), 0);
  const warnings = shots.map((shot) =>
    shotWarnings(
      shot,
      voices[shot.index]?.state === 'done' ? (voices[shot.index]?.durationMs ?? 0) : null,
    ),
  );
  const warned = warnings.filter((list) => list.length > 0).length;

  return (
    <PageFrame
      title="AI漫剧 · 成片检查"
      steps={<AnimeFlowSteps current={5} />}
      actions={
        <>
          <Button block={phone} onClick={() => navigate(`/video/animeStoryboard/${taskId}`)}>
            返回分镜修改
          </Button>
          {workId !== null && !running && shots.length > 0 && (
            <GenerateVideoButton
              workId={workId}
              type={ANIME_TYPE}
              block={phone}
              onStarted={() => navigate(`/video/production?workId=${workId}`)}
            />
          )}
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
      {running && (
        <Alert
          type="info"
          showIcon
          title="分镜画面还在生成中，完成后再检查"
          action={
            <Button size="small" onClick={() => navigate(`/video/animeStoryboard/${taskId}`)}>
              查看分镜进度
            </Button>
          }
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          title={`作品加载失败：${error}`}
          action={
            <Button size="small" onClick={reload}>
              重新加载
            </Button>
          }
        />
      )}
      {orphan && (
        <Alert type="error" showIcon title="这个分镜任务没有对应的作品，请从视频合成重新开始" />
      )}
      {!work && !error && !task.error && !running && !orphan && <Skeleton active />}
      {work && (
        <Flex vertical gap={12}>
          <Flex gap={32} wrap role="status" aria-label="成片概况">
            <Statistic title="镜头" value={shots.length} />
            <Statistic
              title={measured ? '预计时长' : '预计时长（配音中）'}
              value={(totalMs / 1000).toFixed(1)}
              suffix="秒"
            />
            <Statistic title="有提醒的镜头" value={warned} />
          </Flex>
          {warned > 0 && (
            <Alert
              type="warning"
              showIcon
              title={`${warned} 个镜头有提醒，可以返回分镜修改；也可以直接生成`}
            />
          )}
          {shots.map((shot, i) => (
            <CheckShotRow
              key={shot.index}
              shot={shot}
              voice={voices[shot.index]}
              warnings={warnings[i] ?? []}
            />
          ))}
        </Flex>
      )}
    </PageFrame>
  );
}

/**
 * `/video/animeAtcs/:taskId` 成片检查 (`:taskId` = the storyboard task): per shot its picture, its
 * line spoken in its voice (play it) and that timing, and warnings (no picture, a local stand-in,
 * a line too long for one shot); then 生成视频 (one count, confirmed) and the shared production
 * and result pages.
 */
export function AnimeAtcsPage() {
  const user = useAtomValue(currentUserAtom);
  const { taskId = '' } = useParams();
  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;
  return <FinalCheck key={taskId} taskId={taskId} />;
}
