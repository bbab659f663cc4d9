import { Alert, Button, Empty, Flex, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { Link } from '@kol/shared-sdk/router';
import { canUseProjectType } from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { rolesIn } from '@kol/shared-sdk/text';
import { PageFrame } from '../../../components/page-frame';
import { useRoleTask } from '../../../flow-kit/characters/api/use-role-task';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import { NoPermission } from '../../../flow-kit/no-permission';
import { pagePath, usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { needsPicture, useShotPictures } from '../api/use-shot-pictures';
import { COMIC_STEPS, flowQuery } from '../comic-flow';
import { ShotPictureCard } from '../components/shot-picture-card';
import { useComicFlow } from '../use-comic-flow';

function ShotPictures({ workId }: { workId: number }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { type, store, overseas } = useComicFlow();
  const pictures = useShotPictures(workId);
  const { roles } = useRoleTask(type, workId, store);
  useUsageLimits();
  const query = flowQuery(type, workId);
  const work = pictures.work;

  const missing = work?.shots.filter(needsPicture).length ?? 0;
  const busy = Object.values(pictures.drawing).some((picture) => picture.busy);

  return (
    <PageFrame
      title={overseas ? '海外漫剪视频 · 分镜画面' : '漫剪视频 · 分镜画面'}
      steps={<FlowSteps steps={COMIC_STEPS} current={3} />}
      extra={
        <Button
          disabled={!work || work.shots.length === 0}
          loading={busy || pictures.saving}
          onClick={() => void pictures.drawAll()}
        >
          生成全部画面{missing > 0 ? `（${missing} 张待生成）` : ''}
        </Button>
      }
      actions={
        <>
          <Button onClick={() => navigate(`/video/character${query}`)}>上一步</Button>
          {work && work.shots.length > 0 && (
            <GenerateVideoButton
              workId={workId}
              type={type}
              prepare={pictures.savePrompts}
              onStarted={() => navigate(`/video/production?workId=${workId}`)}
            />
          )}
        </>
      }
    >
      {pictures.error && (
        <Alert
          type="error"
          showIcon
          title={`分镜加载失败：${pictures.error}`}
          action={
            <Button size="small" onClick={pictures.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {!work && !pictures.error && <Skeleton active />}
      {work && work.shots.length === 0 && (
        <Empty description="这个作品还没有分镜">
          <Link to={pagePath(`/video/caption${query}`, phone)}>去编辑分镜字幕</Link>
        </Empty>
      )}
      {work && work.shots.length > 0 && (
        <>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            可以修改每个分镜的画面描述再生成；没有单独生成的分镜会在生成视频时自动绘制。生成画面不消耗次数。
          </Typography.Paragraph>
          <Flex vertical gap={8}>
            {work.shots.map((shot) => (
              <ShotPictureCard
                key={shot.index}
                shot={shot}
                prompt={pictures.prompts[shot.index] ?? ''}
                onPromptChange={(prompt) => pictures.setPrompt(shot.index, prompt)}
                onPromptDone={() => void pictures.savePrompts()}
                roles={rolesIn(shot.caption, roles)}
                drawing={pictures.drawing[String(shot.index)]}
                note={pictures.notes[shot.index]}
                onDraw={() => void pictures.draw(shot.index)}
                phone={phone}
              />
            ))}
          </Flex>
        </>
      )}
    </PageFrame>
  );
}

/**
 * `/video/promptWord/:id` 分镜画面 (`:id` is the work): each shot's picture prompt to edit, its
 * roles, its picture drawn alone or all at once, then 生成视频.
 */
export function PromptWordStep() {
  const user = useAtomValue(currentUserAtom);
  const { type, workId } = useComicFlow();
  if (!canUseProjectType(user, type)) return <NoPermission type={type} />;
  if (workId === null) {
    return (
      <PageFrame title="分镜画面">
        <Alert type="warning" showIcon title="地址中没有作品编号" />
      </PageFrame>
    );
  }
  return <ShotPictures workId={workId} />;
}
