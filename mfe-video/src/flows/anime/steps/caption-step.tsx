import { useMemo } from 'react';
import { Alert, Button, Empty, Flex, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useLocation, useSearchParams } from '@kol/shared-sdk/router';
import { canUseProjectType } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { VideoEstimate } from '../../../components/video-estimate';
import { useVocabulary } from '../../../flow-kit/flagged-words/api/use-vocabulary';
import { FlaggedWordsAlert } from '../../../flow-kit/flagged-words/components/flagged-words-alert';
import { findFlaggedWords, replaceWord } from '../../../flow-kit/flagged-words/flagged-words';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { ANIME_STEPS, ANIME_TYPE, animeQuery, workIdOf } from '../anime-flow';
import { estimateScriptMs, speakersOf } from '../anime-script';
import { useScriptEditor, type SaveState } from '../api/use-script-editor';
import { NoAnimeWork } from '../components/no-anime-work';
import { ScriptLineRow } from '../components/script-line-row';
import { SpeakerSummary } from '../components/speaker-summary';

const SAVE_TEXT: Record<SaveState, string> = {
  saved: '已保存',
  pending: '编辑中…',
  saving: '保存中…',
  failed: '未保存',
};

function ScriptEditor({ workId }: { workId: number }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { state } = useLocation() as { state: { engine?: string; note?: string | null } | null };
  const editor = useScriptEditor(workId);
  const { vocabulary, error: vocabularyError } = useVocabulary();
  const query = animeQuery(workId);
  const lines = editor.lines;

  const speakers = useMemo(() => speakersOf(lines ?? []), [lines]);
  const flagged = useMemo(
    () => findFlaggedWords((lines ?? []).map((line) => line.text).join('\n'), vocabulary),
    [lines, vocabulary],
  );

  const next = async () => {
    if (await editor.flush()) navigate(`/video/animeConfig${query}`);
  };

  return (
    <PageFrame
      title="AI漫剧 · 剧本"
      steps={<FlowSteps steps={ANIME_STEPS} current={1} />}
      extra={
        <Typography.Text
          type={editor.saveState === 'failed' ? 'danger' : 'secondary'}
          aria-label="保存状态"
        >
          {SAVE_TEXT[editor.saveState]}
        </Typography.Text>
      }
      actions={
        <>
          <Button onClick={() => navigate(`/video/animeInspiration${query}`)}>上一步</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            disabled={!lines}
            loading={editor.saveState === 'saving'}
            onClick={() => void next()}
          >
            下一步：视频配置
          </Button>
        </>
      }
    >
      {state?.engine && (
        <Alert
          type="info"
          showIcon
          title={`剧本改编方式：${state.engine}`}
          description={state.note ?? undefined}
        />
      )}
      {editor.loadError && (
        <Alert
          type="error"
          showIcon
          title={`剧本加载失败：${editor.loadError}`}
          action={
            <Button size="small" onClick={editor.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {editor.saveError && <Alert type="error" showIcon role="alert" title={editor.saveError} />}
      {!lines && !editor.loadError && <Skeleton active />}
      {lines && (
        <Flex vertical gap={8}>
          <SpeakerSummary speakers={speakers} />
          <VideoEstimate ms={estimateScriptMs(lines, editor.settings ?? {})} />
          <FlaggedWordsAlert
            flagged={flagged}
            error={vocabularyError}
            onReplace={(word, replacement) =>
              editor.replaceEverywhere(word, replacement, (text) =>
                replaceWord(text, word, replacement),
              )
            }
          />
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            每行一句：选择说话的角色（「旁白」为叙述），台词会用该角色的配音朗读，并成为一个分镜。修改会自动保存。
          </Typography.Paragraph>
          {lines.length === 0 && <Empty description="剧本还没有台词" />}
          {lines.map((line, index) => (
            <ScriptLineRow
              key={line.key}
              line={line}
              index={index}
              count={lines.length}
              speakers={speakers.map((speaker) => speaker.name)}
              flagged={findFlaggedWords(line.text, vocabulary)}
              onEdit={(patch) => editor.edit(line.key, patch)}
              onAddAfter={() => editor.addAfter(index)}
              onMove={(delta) => editor.move(index, delta)}
              onDelete={() => editor.remove(line.key)}
            />
          ))}
          <Button
            style={{ alignSelf: 'flex-start' }}
            onClick={() => editor.addAfter(lines.length - 1)}
          >
            添加一行
          </Button>
        </Flex>
      )}
    </PageFrame>
  );
}

/** `/video/animeCaption` 剧本: the work's script, line by line, saved as it is edited. */
export function AnimeCaptionStep() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;
  if (workId === null) return <NoAnimeWork title="AI漫剧 · 剧本" />;
  return <ScriptEditor key={workId} workId={workId} />;
}
