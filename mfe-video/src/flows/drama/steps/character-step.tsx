import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Col, Empty, Row, Skeleton, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { errorMessage } from '@kol/shared-sdk';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import { useVoices } from '../../../hooks/use-voices';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { useOperaDraft } from '../api/use-opera-draft';
import { AppearanceTable } from '../components/appearance-table';
import { CharacterCard } from '../components/character-card';
import type { OperaDraft } from '../draft';
import {
  MAX_SPEAKER_CHARS,
  OPERA_STEPS,
  assignDefaultVoices,
  operaQuery,
  operaSettingsToSave,
  scriptGenders,
  scriptProblem,
  scriptText,
  speakersOf,
} from '../opera-flow';
import { renameSpeaker } from '../script-edits';

/** Why a character cannot take a name, in Chinese, or null when it can. */
function nameProblem(to: string, others: readonly string[]): string | null {
  if (!to) return '请填写角色名';
  if (to.length > MAX_SPEAKER_CHARS) return `角色名不能超过 ${MAX_SPEAKER_CHARS} 个字`;
  if (/[：:]/.test(to)) return '角色名不能含有冒号';
  if (others.includes(to)) return `已有角色「${to}」，请换一个名字`;
  return null;
}

/** The draft with one character renamed in every line, its voice kept under the new name. */
function renamed(draft: OperaDraft, from: string, to: string): OperaDraft {
  const voices = { ...draft.settings.roleVoices };
  const voice = voices[from];
  delete voices[from];
  if (voice) voices[to] = voice;
  return {
    ...draft,
    scenes: renameSpeaker(draft.scenes, from, to),
    settings: { ...draft.settings, roleVoices: voices },
  };
}

/**
 * `/video/operaCharacter` 真人短剧 · 角色配音: the characters of the script, each with a voice
 * to audition (two characters start with different voices, as the server would give them), a
 * name to change in every line at once, and who appears in which scene.
 */
export function OperaCharacterStep() {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { workId, draft, update, error, reload, saveWork } = useOperaDraft();
  const voices = useVoices('zh');
  const [saving, setSaving] = useState(false);
  const query = operaQuery(workId);
  const scenes = draft?.scenes ?? [];
  const speakers = speakersOf(scenes);
  const chosen = draft?.settings.roleVoices;
  const draftScenes = draft?.scenes;

  // Every character gets a voice of their gender (what the script says of them) as soon as the
  // list is known; a choice already made is kept.
  const speakerKey = speakers.join('\n');
  useEffect(() => {
    if (voices.loading || voices.voices.length === 0) return;
    const names = speakerKey ? speakerKey.split('\n') : [];
    const assigned = assignDefaultVoices(
      names,
      chosen ?? {},
      voices.voices,
      scriptGenders(draftScenes ?? []),
    );
    if (names.every((name) => chosen?.[name] === assigned[name])) return;
    update((current) => ({
      ...current,
      settings: {
        ...current.settings,
        roleVoices: { ...current.settings.roleVoices, ...assigned },
      },
    }));
  }, [voices.loading, voices.voices, speakerKey, draftScenes, chosen, update]);

  const next = async () => {
    if (!draft || workId === null) return;
    const found = scriptProblem(draft.scenes);
    if (found) {
      void message.error(`${found}，请先回到剧本台词修改`);
      return;
    }
    setSaving(true);
    try {
      // The text too: a renamed character is renamed in the saved script.
      const saved = await saveWork({
        text: scriptText(draft.scenes),
        settings: operaSettingsToSave(draft),
      });
      if (saved) navigate(`/video/operaScene${query}`);
    } catch (reason) {
      void message.error(errorMessage(reason));
    } finally {
      setSaving(false);
    }
  };

  const rename = (from: string, to: string): string | null => {
    const problem = nameProblem(
      to,
      speakers.filter((name) => name !== from),
    );
    if (problem) return problem;
    update((current) => renamed(current, from, to));
    return null;
  };

  const ready = draft !== null && !voices.loading;

  return (
    <PageFrame
      title="真人短剧 · 角色配音"
      steps={<FlowSteps steps={OPERA_STEPS} current={2} />}
      actions={
        <>
          <Button onClick={() => navigate(`/video/operaCaption${query}`)}>上一步</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            loading={saving}
            disabled={workId === null || !ready || speakers.length === 0}
            onClick={() => void next()}
          >
            下一步：场景素材
          </Button>
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
      {voices.error && (
        <Alert
          type="error"
          showIcon
          title={`配音音色加载失败：${voices.error}`}
          action={
            <Button size="small" onClick={voices.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {!ready && !error && <Skeleton active />}
      {ready && speakers.length === 0 && (
        <Empty description="剧本里还没有角色">
          <Link to={`/video/operaCaption${query}`}>去编写剧本台词</Link>
        </Empty>
      )}
      {ready && speakers.length > 0 && (
        <>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            角色来自剧本里每句台词写明的角色。给每个角色选一个配音并试听；两个角色用同一个配音时，会用不同的语速区分。
          </Typography.Paragraph>
          <Row gutter={[12, 12]}>
            {speakers.map((name, index) => {
              const spoken = scenes.flatMap((scene, i) =>
                scene.lines.filter((line) => line.speaker.trim() === name).map(() => i + 1),
              );
              const first = scenes
                .flatMap((scene) => scene.lines)
                .find((line) => line.speaker.trim() === name && line.text.trim());
              return (
                <Col key={name} xs={24} md={phone ? 24 : 12} xl={phone ? 24 : 8}>
                  <CharacterCard
                    name={name}
                    onRename={(to) => rename(name, to)}
                    scenes={[...new Set(spoken)]}
                    lineCount={spoken.length}
                    voice={
                      <VoicePicker
                        language="zh"
                        value={chosen?.[name]}
                        onChange={(voiceId) =>
                          update((current) => ({
                            ...current,
                            settings: {
                              ...current.settings,
                              roleVoices: { ...current.settings.roleVoices, [name]: voiceId },
                            },
                          }))
                        }
                        speed={draft.settings.speed ?? 1}
                        sampleText={first?.text}
                        label={`${name} 的配音`}
                        // Which engine speaks the voices is said once, under the first role's.
                        engineNote={index === 0}
                        auditionLabel={`试听 ${name} 的配音`}
                      />
                    }
                  />
                </Col>
              );
            })}
          </Row>
          <Card size="small" title="出场表">
            <AppearanceTable speakers={speakers} scenes={scenes} />
          </Card>
        </>
      )}
    </PageFrame>
  );
}
