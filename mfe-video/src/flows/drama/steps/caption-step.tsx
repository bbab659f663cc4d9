import { useState } from 'react';
import { Alert, App, Button, Flex, Skeleton, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { Link } from '@kol/shared-sdk/router';
import { formatDurationMs, errorMessage } from '@kol/shared-sdk';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { useOperaDraft } from '../api/use-opera-draft';
import { SceneScriptCard } from '../components/scene-script-card';
import type { OperaDraftScene } from '../draft';
import {
  MAX_SCENES,
  OPERA_STEPS,
  estimateScenesMs,
  operaQuery,
  scriptProblem,
  scriptText,
  speakersOf,
} from '../opera-flow';
import {
  addLine,
  addScene,
  editLine,
  moveLine,
  moveScene,
  removeLine,
  removeScene,
} from '../script-edits';

/**
 * `/video/operaCaption` 真人短剧 · 剧本台词: the script, scenes in order, each with its lines by
 * character; add, edit, reorder and delete (asked first) scenes and lines. 下一步 saves the
 * script as the work's text (`update_text`, on the revision the draft was read or saved at).
 */
export function OperaCaptionStep() {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { workId, draft, update, error, reload, saveWork } = useOperaDraft();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const query = operaQuery(workId);
  const configPath = `/video/operaConfig${query}`;

  const edit = (change: (scenes: readonly OperaDraftScene[]) => OperaDraftScene[]) => {
    update((current) => ({ ...current, scenes: change(current.scenes) }));
    // A shown problem follows the edits, so it goes once it is fixed.
    if (problem && draft) setProblem(scriptProblem(change(draft.scenes)));
  };

  const next = async () => {
    if (!draft || workId === null) return;
    const found = scriptProblem(draft.scenes);
    setProblem(found);
    if (found) {
      void message.error(found);
      return;
    }
    setSaving(true);
    try {
      if (await saveWork({ text: scriptText(draft.scenes) })) {
        navigate(`/video/operaCharacter${query}`);
      }
    } catch (reason) {
      void message.error(errorMessage(reason));
    } finally {
      setSaving(false);
    }
  };

  const scenes = draft?.scenes ?? [];
  const speakers = speakersOf(scenes);
  const lines = scenes.reduce((sum, scene) => sum + scene.lines.length, 0);
  const estimate = estimateScenesMs(scenes, draft?.settings ?? {});

  return (
    <PageFrame
      title="真人短剧 · 剧本台词"
      steps={<FlowSteps steps={OPERA_STEPS} current={1} />}
      extra={
        <Typography.Text aria-live="polite" data-testid="script-summary">
          共 {scenes.length} 个场景 · {lines} 句台词 · {speakers.length} 个角色 · 预计时长 约{' '}
          {formatDurationMs(estimate.totalMs)}
        </Typography.Text>
      }
      actions={
        <>
          <Button onClick={() => navigate(configPath)}>上一步</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            loading={saving}
            disabled={workId === null || !draft}
            onClick={() => void next()}
          >
            下一步：角色配音
          </Button>
        </>
      }
    >
      {workId === null && (
        <Alert
          type="warning"
          showIcon
          title="还没有保存视频配置"
          description={<Link to={configPath}>先去完成视频配置，再编写剧本</Link>}
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
      {!draft && !error && <Skeleton active />}
      {draft && (
        <>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            每个场景对应一段视频或一张照片（下一步之后上传），场景的长度等于它的台词读完的时间。每句台词写明角色，字幕显示为「角色：台词」。
          </Typography.Paragraph>
          {problem && <Alert type="error" showIcon title={problem} />}
          <Flex vertical gap={12}>
            {scenes.map((scene, i) => (
              <SceneScriptCard
                key={scene.key}
                index={i}
                total={scenes.length}
                scene={scene}
                speakers={speakers}
                estimateMs={estimate.scenes[i] ?? 0}
                onLineChange={(j, patch) => edit((all) => editLine(all, i, j, patch))}
                onAddLine={() => edit((all) => addLine(all, i))}
                onMoveLine={(j, by) => edit((all) => moveLine(all, i, j, by))}
                onRemoveLine={(j) => edit((all) => removeLine(all, i, j))}
                onMove={(by) => edit((all) => moveScene(all, i, by))}
                onRemove={() => edit((all) => removeScene(all, i))}
              />
            ))}
          </Flex>
          <Button
            type="dashed"
            block
            icon={<PlusOutlined aria-hidden />}
            disabled={scenes.length >= MAX_SCENES}
            onClick={() => edit(addScene)}
          >
            添加场景
          </Button>
        </>
      )}
    </PageFrame>
  );
}
