import { formatDurationMs, errorMessage } from '@kol/shared-sdk';
import { useMemo, useState } from 'react';
import { Alert, App, Button, Empty, Flex, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { Link } from '@kol/shared-sdk/router';
import { canUseProjectType, estimateNarrationMs, narrationVoiceOf } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { PageFrame } from '../../../components/page-frame';
import { useVocabulary } from '../../../flow-kit/flagged-words/api/use-vocabulary';
import { FlaggedWordsAlert } from '../../../flow-kit/flagged-words/components/flagged-words-alert';
import { findFlaggedWords } from '../../../flow-kit/flagged-words/flagged-words';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { pagePath, usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { captionsOfWork, saveCaptions } from '../api/save-shots';
import { captionsProblem, useCaptionShots } from '../api/use-caption-shots';
import { useCaptionWork } from '../api/use-caption-work';
import { COMIC_STEPS, flowQuery } from '../comic-flow';
import { ShotRow } from '../components/shot-row';
import { estimateShotMs, textOfShots } from '../shots';
import { useComicFlow } from '../use-comic-flow';

/**
 * `/video/caption` 分镜字幕: the text split into shots, one caption each, to edit, merge, split,
 * reorder and delete, with the estimated length and the flagged words before anything is spent.
 */
export function CaptionStep() {
  const { message } = App.useApp();
  const user = useAtomValue(currentUserAtom);
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { type, workId, store, overseas } = useComicFlow();
  const settings = store.settings();
  // The voice the server will speak with (the type's default when none is chosen).
  const voice = { voiceId: narrationVoiceOf(type, settings.voiceId), speed: settings.speed ?? 1 };
  const shots = useCaptionShots(store, voice);
  const captionWork = useCaptionWork(workId);
  const revisionedSave = useRevisionedSave();
  const { vocabulary, error: vocabularyError } = useVocabulary();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const estimates = shots.captions.map((caption) => estimateShotMs(caption, voice));
  // The whole narration at once: the last shot has no pause after it.
  const total = estimateNarrationMs(textOfShots(shots.captions), voice);
  const flagged = useMemo(
    () => findFlaggedWords(textOfShots(shots.captions), vocabulary),
    [shots.captions, vocabulary],
  );
  const configPath = `/video/config${flowQuery(type, workId)}`;

  if (!canUseProjectType(user, type)) return <NoPermission type={type} />;

  const next = async () => {
    const found = captionsProblem(shots.captions);
    setProblem(found);
    if (found) {
      void message.error(found);
      return;
    }
    if (workId === null) return;
    setSaving(true);
    try {
      const work = await captionWork.loaded();
      if (!work) {
        void message.error(`作品加载失败：${captionWork.error ?? '请重新加载'}`);
        return;
      }
      const saved = await saveCaptions(revisionedSave, work, shots.captions);
      if (!saved) {
        // The person chose the work as saved elsewhere: its captions replace theirs.
        const latest = await captionWork.reload();
        if (latest) shots.reset(captionsOfWork(latest));
        return;
      }
      captionWork.setWork(saved);
      navigate(`/video/character${flowQuery(type, workId)}`);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageFrame
      title={overseas ? '海外漫剪视频 · 分镜字幕' : '漫剪视频 · 分镜字幕'}
      steps={<FlowSteps steps={COMIC_STEPS} current={1} />}
      extra={
        <Typography.Text aria-live="polite" data-testid="caption-summary">
          共 {shots.captions.length} 个分镜 · 预计时长 约 {formatDurationMs(total)}
        </Typography.Text>
      }
      actions={
        <>
          <Button onClick={() => navigate(configPath)}>上一步</Button>
          <Button onClick={shots.resplit}>恢复自动分镜</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            loading={saving}
            disabled={workId === null}
            onClick={() => void next()}
          >
            下一步：角色
          </Button>
        </>
      }
    >
      {workId === null && (
        <Alert
          type="warning"
          showIcon
          title="还没有保存视频配置"
          description={
            <Link to={pagePath(configPath, phone)}>先去完成视频配置，再编辑分镜字幕</Link>
          }
        />
      )}
      {captionWork.error && (
        <Alert
          type="error"
          showIcon
          title={`作品加载失败：${captionWork.error}`}
          action={
            <Button size="small" onClick={captionWork.retry}>
              重新加载
            </Button>
          }
        />
      )}
      <FlaggedWordsAlert flagged={flagged} onReplace={shots.replace} error={vocabularyError} />
      {problem && <Alert type="error" showIcon title={problem} />}
      {shots.captions.length === 0 ? (
        <Empty description="还没有视频文案">
          <Link to={pagePath(configPath, phone)}>去填写文案</Link>
        </Empty>
      ) : (
        <Flex vertical gap={8}>
          {shots.captions.map((caption, index) => (
            <ShotRow
              key={shots.keys[index]}
              index={index}
              total={shots.captions.length}
              caption={caption}
              estimateMs={estimates[index] ?? 0}
              flagged={findFlaggedWords(caption, vocabulary)}
              onChange={(value) => shots.edit(index, value)}
              onMergeWithNext={() => shots.mergeWithNext(index)}
              onSplitAt={(at) => shots.splitAt(index, at)}
              onMove={(by) => shots.move(index, by)}
              onRemove={() => shots.remove(index)}
              onReplace={shots.replace}
            />
          ))}
        </Flex>
      )}
    </PageFrame>
  );
}
