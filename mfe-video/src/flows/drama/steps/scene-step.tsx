import { useRef, useState } from 'react';
import { Alert, App, Button, Empty, Flex, Skeleton, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { errorMessage } from '@kol/shared-sdk';
import { useUsageLimits } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import { usePageNavigate } from '../../../lib/phone';
import { useOperaDraft } from '../api/use-opera-draft';
import { SceneMediaCard } from '../components/scene-media-card';
import {
  OPERA_STEPS,
  OPERA_TYPE,
  mediaProblem,
  operaQuery,
  operaSettingsToSave,
  scriptProblem,
  scriptText,
} from '../opera-flow';
import { SCENE_FILE_LIMITS } from '../scene-file';

/**
 * `/video/operaScene` 真人短剧 · 场景素材: a clip or a photo for each scene (the server's limits
 * stated first, a progress bar while sending, a preview after), then 生成视频: the drama saved
 * whole on the work, one count spent (asked first), and on to the shared production page.
 */
export function OperaSceneStep() {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const { workId, draft, update, error, reload, saveWork } = useOperaDraft();
  useUsageLimits();
  const [problem, setProblem] = useState<string | null>(null);
  // Uploads still being sent, by scene key: the drama is not rendered before they arrive.
  const busy = useRef(new Set<string>());
  const [, setBusyCount] = useState(0);
  const query = operaQuery(workId);

  const setBusy = (key: string, on: boolean) => {
    if (on) busy.current.add(key);
    else busy.current.delete(key);
    setBusyCount(busy.current.size);
  };

  const prepare = async (): Promise<boolean> => {
    if (!draft || workId === null) return false;
    const found =
      busy.current.size > 0
        ? '还有素材正在上传，请等上传完成再生成'
        : (scriptProblem(draft.scenes) ?? mediaProblem(draft.scenes));
    setProblem(found);
    if (found) {
      void message.error(found);
      return false;
    }
    try {
      // The whole drama on the work: the script as text, the settings with every scene.
      return await saveWork({
        text: scriptText(draft.scenes),
        settings: operaSettingsToSave(draft),
      });
    } catch (reason) {
      void message.error(errorMessage(reason));
      return false;
    }
  };

  const uploaded = (
    index: number,
    media: { url: string; kind: 'image' | 'video'; name: string },
  ) => {
    update((current) => ({
      ...current,
      scenes: current.scenes.map((scene, i) =>
        i === index
          ? { ...scene, mediaUrl: media.url, mediaKind: media.kind, mediaName: media.name }
          : scene,
      ),
    }));
    // What was missing may be here now; 生成视频 checks everything again.
    setProblem(null);
  };

  return (
    <PageFrame
      title="真人短剧 · 场景素材"
      steps={<FlowSteps steps={OPERA_STEPS} current={3} />}
      actions={
        <>
          <Button onClick={() => navigate(`/video/operaCharacter${query}`)}>上一步</Button>
          {workId !== null && draft && draft.scenes.length > 0 && (
            <GenerateVideoButton
              workId={workId}
              type={OPERA_TYPE}
              prepare={prepare}
              onStarted={() => navigate(`/video/production?workId=${workId}`)}
            />
          )}
        </>
      }
    >
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
      {!draft && !error && <Skeleton active />}
      {workId === null && (
        <Alert
          type="warning"
          showIcon
          title="还没有保存视频配置"
          description={<Link to="/video/operaConfig">先去完成视频配置</Link>}
        />
      )}
      {draft && draft.scenes.length === 0 && (
        <Empty description="剧本里还没有场景">
          <Link to={`/video/operaCaption${query}`}>去编写剧本台词</Link>
        </Empty>
      )}
      {draft && draft.scenes.length > 0 && (
        <>
          <Alert
            type="info"
            showIcon
            title="每个场景上传一段视频或一张照片"
            description={
              <Flex vertical>
                <span>{SCENE_FILE_LIMITS.image}</span>
                <span>{SCENE_FILE_LIMITS.video}</span>
                <Typography.Text type="secondary">
                  场景的长度等于它的台词读完的时间：照片会一直显示，比台词短的视频会循环播放，视频原有的声音不保留。
                </Typography.Text>
              </Flex>
            }
          />
          {problem && <Alert type="error" showIcon title={problem} />}
          <Flex vertical gap={12}>
            {draft.scenes.map((scene, i) => (
              <SceneMediaCard
                key={scene.key}
                index={i}
                scene={scene}
                aspect={draft.settings.aspect}
                onUploaded={(media) => uploaded(i, media)}
                onBusyChange={(on) => setBusy(scene.key, on)}
              />
            ))}
          </Flex>
        </>
      )}
    </PageFrame>
  );
}
