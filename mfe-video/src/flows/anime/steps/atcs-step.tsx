import { Alert, Button, Flex, Skeleton, Statistic } from 'antd';
import { useAtomValue } from 'jotai';
import { useParams } from '@kol/shared-sdk/router';
import { canUseProjectType, shotPicture } from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { useServices } from '@kol/shared-sdk/ui';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import { NoPermission } from '../../../flow-kit/no-permission';
import { usePageNavigate } from '../../../lib/phone';
import { ANIME_STEPS, ANIME_TYPE } from '../anime-flow';
import { useAnimeWork } from '../api/use-anime-work';
import { useShotVoices } from '../api/use-shot-voices';
import { isRunning, useStoryboardTask } from '../api/use-storyboard-task';
import { CheckShotRow } from '../components/check-shot-row';
import { shotWarnings } from '../shot-warnings';

function FinalCheck({ taskId }: { taskId: string }) {
  const navigate = usePageNavigate();
  useUsageLimits();
  const task = useStoryboardTask(taskId);
  const workId = task.result?.workId || null;
  const running = isRunning(task.result);
  // A task of no work (not a storyboard task): nothing to show but the way back.
  const orphan = task.result !== null && workId === null;
  const { work, error, reload } = useAnimeWork(running ? null : workId);
  const voices = useShotVoices(work);
  const services = useServices();
  const shots = work?.shots ?? [];
  // Each picture is told by the engine recorded on its shot; until the services are known, one
  // recorded without an engine is not called local (nor generated).
  const imagesConfigured = services ? services.pictures !== null : true;

  const spoken = shots.map((shot) => voices[shot.index]);
  const measured = spoken.every((voice) => voice?.state === 'done' || voice?.state === 'failed');
  const totalMs = spoken.reduce((sum, voice) => sum + (voice?.durationMs ?? 0), 0);
  const warnings = shots.map((shot) =>
    shotWarnings(
      shot,
      voices[shot.index]?.state === 'done' ? (voices[shot.index]?.durationMs ?? 0) : null,
      imagesConfigured,
    ),
  );
  const warned = warnings.filter((list) => list.length > 0).length;
  // Shots the video will show as local cards: drawn locally, standing in, or not drawn yet.
  const local = shots.filter((shot) => shotPicture(shot, imagesConfigured) !== 'service').length;
  const redraw = `/video/animeStoryboard/${taskId}`;

  return (
    <PageFrame
      title="AI漫剧 · 成片检查"
      steps={<FlowSteps steps={ANIME_STEPS} current={5} />}
      actions={
        <>
          <Button onClick={() => navigate(`/video/animeStoryboard/${taskId}`)}>上一步</Button>
          {workId !== null && !running && shots.length > 0 && (
            <GenerateVideoButton
              workId={workId}
              type={ANIME_TYPE}
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
          {services && services.pictures === null && local > 0 && (
            <Alert
              type="warning"
              showIcon
              title={`未配置图像服务：${local === shots.length ? '镜头画面都是' : `${local} 个镜头是`}本地画面，只有文字排版，不是生成的插画`}
              description="配置图像服务（由管理员设置）后，返回分镜页重新生成画面。"
            />
          )}
          {services && services.voice === null && (
            <Alert
              type="warning"
              showIcon
              title="配音由离线引擎 espeak-ng 合成：声音较机械，不适合直接发布"
              description="配置语音服务（由管理员设置）后，可以换成自然人声。"
            />
          )}
          {shots.map((shot, i) => (
            <CheckShotRow
              key={shot.index}
              shot={shot}
              voice={voices[shot.index]}
              warnings={warnings[i] ?? []}
              redraw={redraw}
            />
          ))}
        </Flex>
      )}
    </PageFrame>
  );
}

/**
 * `/video/animeAtcs/:taskId` 成片检查 (`:taskId` = the storyboard task): per shot its picture, its
 * line spoken in its voice (play it) and that timing, and warnings with what fixes them (no
 * picture, a local stand-in for a failed picture, a card of the local renderer: told by the engine
 * the server recorded on the shot, so a local card shows even with an image service configured;
 * a line too long for one shot), and the offline voice named; then 生成视频 (one count, confirmed) and the shared production
 * and result pages.
 */
export function AnimeAtcsStep() {
  const user = useAtomValue(currentUserAtom);
  const { taskId = '' } = useParams();
  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;
  return <FinalCheck key={taskId} taskId={taskId} />;
}
