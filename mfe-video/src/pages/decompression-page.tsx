import { useRef, useState } from 'react';
import { App, Card, Col, Flex, Radio, Row, Slider, Switch, Tooltip, Typography } from 'antd';
import { useAtom, useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  ProjectType,
  canUseProjectType,
  genVideo,
  getUserLimitInfo,
  isApiError,
  newIdempotencyKey,
  remainingGenerations,
  sessionStore,
  videoTypeLabel,
  type DecompressionDraft,
  errorMessage,
} from '@kol/shared-sdk';
import { currentUserAtom, usageLimitsAtom } from '@kol/shared-sdk/state';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { ConfirmButton } from '../components/confirm-button';
import { NoPermission } from '../components/no-permission';
import { PageFrame } from '../components/page-frame';
import { QuotaUsedUp } from '../components/quota-used-up';
import { titleOf, videoTextProblem } from '../features/comic-config/validation';
import { saveDecompressionWork } from '../features/decompression-materials/api/save-decompression-work';
import { MaterialPicker } from '../features/decompression-materials/components/material-picker';
import { TextSourceCard } from '../features/text-source/components/text-source-card';
import { CaptionStylePicker } from '../features/video-settings/components/caption-style-picker';
import { MusicPicker } from '../features/video-settings/components/music-picker';
import { VoicePicker } from '../features/voices/components/voice-picker';
import { useSavedWork } from '../hooks/use-saved-work';
import { useUsageLimits } from '../hooks/use-usage-limits';
import { MAX_VIDEO_TEXT_CHARS } from '../lib/comic-flow';
import {
  decompressionQuery,
  decompressionStore,
  decompressionTypeOf,
  draftSettingsOf,
  workIdOf,
  type DecompressionType,
  type KeptDecompressionDraft,
} from '../lib/decompression-flow';
import { usePageNavigate, usePhoneLayout } from '../lib/phone';
import { savedWorkOf } from '../lib/work-edits';

type Settings = DecompressionDraft['settings'];

function DecompressionForm({ type }: { type: DecompressionType }) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const [params] = useSearchParams();
  const overseas = type === ProjectType.decompressionOverseas;
  const [store] = useState(() => decompressionStore(overseas));
  const [draft, setDraft] = useState<KeptDecompressionDraft>(() => store.draft());
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [limits, setLimits] = useAtom(usageLimitsAtom);
  // The work, once 确认生成 has made it (or the address named it): a retry renders this one.
  const workId = useRef<number | null>(workIdOf(params));
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(workIdOf(params), draft.saved);
  const label = videoTypeLabel(type);
  const left = limits ? remainingGenerations(limits, type) : null;

  const update = (change: (current: KeptDecompressionDraft) => KeptDecompressionDraft) =>
    setDraft((current) => {
      const next = change(current);
      store.setDraft(next);
      return next;
    });
  const changeSettings = (patch: Partial<Settings>) =>
    update((current) => {
      const settings = { ...current.settings, ...patch };
      // No music chosen lets the server pick its default track.
      if (settings.musicId === undefined) delete settings.musicId;
      return { ...current, settings };
    });
  const changeText = (text: string) => {
    update((current) => ({ ...current, text }));
    if (problem) setProblem(videoTextProblem(text));
  };
  const speed = draft.settings.speed ?? 1;

  /** Checks the input before the count is asked for; makes nothing (取消 leaves nothing). */
  const prepare = async (): Promise<boolean> => {
    const found = videoTextProblem(draft.text);
    setProblem(found);
    if (found) {
      void message.error(found);
      return false;
    }
    if (uploading) {
      void message.warning('背景视频还在上传，请等上传完成');
      return false;
    }
    return true;
  };

  /**
   * 确认生成: the work is made (or saved over, on the revision it was last saved or read at) now
   * that the creator has committed, then rendered. When the person chose the newest work over
   * their edit, it replaces what this page had and nothing is rendered (the dialog closes).
   */
  const render = async () => {
    try {
      const over = workId.current !== null ? await savedWork.base() : null;
      if (workId.current !== null && !over) throw new Error(savedWork.problem());
      // Kept in the session until the work is made: a try again reuses it (see the draft).
      const createKey = over ? undefined : (draft.createKey ?? newIdempotencyKey());
      if (createKey && !draft.createKey) update((current) => ({ ...current, createKey }));
      const saved = await saveDecompressionWork(
        {
          saved: over,
          type,
          title: draft.title.trim() || titleOf(draft.text),
          draft: { ...draft, ...(createKey ? { createKey } : {}) },
        },
        revisionedSave,
      );
      if (!saved) {
        // The person chose the work as saved elsewhere: it replaces what this page had.
        const newest = await savedWork.takeNewest();
        if (newest) {
          update(() => ({
            title: newest.title,
            text: newest.text,
            settings: draftSettingsOf(newest.settings),
            saved: savedWorkOf(newest),
          }));
        }
        return;
      }
      const id = saved.workId;
      // Kept with the draft: the next save over the work, after a reload too, is based on it.
      // Made: the key is dropped, the next work of this page is another action.
      update(({ createKey: _made, ...current }) => ({ ...current, saved }));
      if (id !== workId.current) {
        workId.current = id;
        // The work in the address: a reload or a retry goes on with it, not a second work.
        navigate(`/video/decompression${decompressionQuery(type, id)}`, { replace: true });
      }
      await genVideo({ workId: id });
      getUserLimitInfo(undefined).then(setLimits, () => undefined);
      navigate(`/video/production?workId=${id}`);
    } catch (reason) {
      void message.error(
        reason instanceof Error && !isApiError(reason) ? reason.message : errorMessage(reason),
      );
      throw reason;
    }
  };

  return (
    <PageFrame
      title={`${label} · 视频配置`}
      extra={<OverseasSwitch type={type} text={draft.text} />}
      actions={
        <ConfirmButton
          type="primary"
          size={phone ? 'large' : 'middle'}
          block={phone}
          prepare={prepare}
          confirmTitle="生成视频"
          confirmContent={`将消耗 1 次「${label}」生成次数${left !== null ? `（当前剩余 ${left} 次）` : ''}。生成失败会自动退回次数；中途取消不退回。`}
          okText="确认生成"
          onConfirm={render}
        >
          生成视频{left !== null ? `（剩余 ${left} 次）` : ''}
        </ConfirmButton>
      }
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        旁白朗读文案，背景是一段循环播放的解压画面，字幕逐句显示。生成后可以在片段编辑里逐句修改、重新配音、换背景，再合成。
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Flex vertical gap={16}>
            <TextSourceCard
              text={draft.text}
              onTextChange={changeText}
              title={draft.title}
              onTitleChange={(title) => update((current) => ({ ...current, title }))}
              onChapterPicked={(chapterId) => sessionStore.set('chapterId', chapterId)}
              problem={problem}
              maxChars={MAX_VIDEO_TEXT_CHARS}
              handedOver={false}
              overseas={overseas}
              textLabel="旁白文案"
            />
            <Card title="背景画面" size="small">
              <MaterialPicker
                value={draft.settings.backgroundMaterialId}
                onChange={(backgroundMaterialId) => changeSettings({ backgroundMaterialId })}
                onBusyChange={setUploading}
              />
            </Card>
          </Flex>
        </Col>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Flex vertical gap={16}>
            <Card title="画面比例" size="small">
              <Radio.Group
                aria-label="画面比例"
                name="decompression-aspect"
                optionType="button"
                value={draft.settings.aspect}
                onChange={(event) =>
                  changeSettings({ aspect: event.target.value as Settings['aspect'] })
                }
                options={[
                  { value: '9:16', label: '竖屏 9:16' },
                  { value: '16:9', label: '横屏 16:9' },
                ]}
              />
            </Card>
            <Card title="配音" size="small">
              <Flex vertical gap={8}>
                <VoicePicker
                  language={overseas ? 'en' : 'zh'}
                  value={draft.settings.voiceId}
                  onChange={(voiceId) => changeSettings({ voiceId })}
                  speed={speed}
                  sampleText={draft.text}
                />
                <Flex align="center" gap={12}>
                  <Typography.Text>语速 {speed.toFixed(1)}×</Typography.Text>
                  <Slider
                    aria-label="语速"
                    style={{ flex: 1 }}
                    min={0.5}
                    max={2}
                    step={0.1}
                    value={speed}
                    onChange={(value: number) => changeSettings({ speed: value })}
                  />
                </Flex>
              </Flex>
            </Card>
            <Card title="背景音乐" size="small">
              <MusicPicker
                value={draft.settings.musicId}
                onChange={(musicId) => changeSettings({ musicId })}
              />
            </Card>
            <Card title="字幕样式" size="small">
              <CaptionStylePicker
                value={draft.settings.captionStyle ?? 'classic'}
                onChange={(captionStyle) => changeSettings({ captionStyle })}
              />
            </Card>
          </Flex>
        </Col>
      </Row>
    </PageFrame>
  );
}

/**
 * Domestic or overseas: the type lives in the address (`?videoType=6`), which the host's quota
 * rule reads. Switching carries the text over when the other variant has none yet.
 */
function OverseasSwitch({ type, text }: { type: DecompressionType; text: string }) {
  const [params, setParams] = useSearchParams();
  const limits = useAtomValue(usageLimitsAtom);
  const overseas = type === ProjectType.decompressionOverseas;
  const other: DecompressionType = overseas
    ? ProjectType.decompression
    : ProjectType.decompressionOverseas;
  const otherUsedUp = limits !== null && remainingGenerations(limits, other) <= 0;
  const switchTo = (on: boolean) => {
    const target = decompressionStore(on);
    const current = target.draft();
    if (!current.text.trim() && text.trim()) target.setDraft({ ...current, text });
    const next = new URLSearchParams(params);
    next.set(
      'videoType',
      String(on ? ProjectType.decompressionOverseas : ProjectType.decompression),
    );
    // Another variant is another work.
    next.delete('workId');
    setParams(next, { replace: true });
  };
  return (
    <Tooltip title={otherUsedUp ? `${videoTypeLabel(other)}的生成次数已用完` : undefined}>
      <Flex align="center" gap={8}>
        <Switch aria-label="海外版" checked={overseas} disabled={otherUsedUp} onChange={switchTo} />
        <Typography.Text>海外版（英文配音与字幕）</Typography.Text>
      </Flex>
    </Tooltip>
  );
}

/**
 * `/video/decompression` 解压视频: the narration, the looping background (library or upload),
 * voice, speed, music and captions; 生成视频 asks first, and 确认生成 saves the work and spends
 * one count (nothing is made before the creator confirms).
 * The back-guard of spec section 4: no count of the type left blocks the page.
 */
export function DecompressionPage() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const type = decompressionTypeOf(params);
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, type)) return <NoPermission type={type} />;
  if (limits && remainingGenerations(limits, type) <= 0) return <QuotaUsedUp type={type} />;
  return <DecompressionForm key={type} type={type} />;
}
