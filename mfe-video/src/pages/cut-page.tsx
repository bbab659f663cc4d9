import { useState } from 'react';
import { Alert, App, Button, Empty, Flex, Skeleton, Slider, Typography } from 'antd';
import { useAtom } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  ProjectType,
  QUOTA_FIELDS,
  QUOTA_TYPE_OF_PROJECT,
  getUserLimitInfo,
  videoTypeLabel,
  type CutSegment,
  type ProjectType as ProjectTypeValue,
  errorMessage,
} from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { ConfirmButton } from '../components/confirm-button';
import { PageFrame } from '../components/page-frame';
import { useCutVideo } from '../features/cut-segments/api/use-cut-video';
import { SegmentCard } from '../features/cut-segments/components/segment-card';
import { VoicePicker } from '../features/voices/components/voice-picker';
import { useUsageLimits } from '../hooks/use-usage-limits';
import { workIdOf } from '../lib/decompression-flow';
import { usePageNavigate } from '../lib/phone';

function CutEditor({ workId }: { workId: number }) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const { cut, workType, lastResult, materials, error, reload, save, speak, merge } =
    useCutVideo(workId);
  const [segments, setSegments] = useState<CutSegment[]>([]);
  const [voiceId, setVoiceId] = useState<string | undefined>();
  const [speed, setSpeed] = useState(1);
  // Which speech runs: 'all', a segment's index, or null.
  const [speaking, setSpeaking] = useState<'all' | number | null>(null);
  const [limits, setLimits] = useAtom(usageLimitsAtom);
  // The merge counts, fetched afresh: the button says how many are left.
  useUsageLimits();

  // Each copy the server answers (load, save, speech) replaces the segments shown.
  const [shownCut, setShownCut] = useState(cut);
  if (cut !== shownCut) {
    setShownCut(cut);
    if (cut) {
      setSegments(cut.segments);
      setVoiceId((current) => current ?? cut.voiceId);
    }
  }

  if (error) {
    return (
      <PageFrame title="片段编辑" outside>
        <Alert
          type="error"
          showIcon
          title={`剪辑数据加载失败：${error}`}
          action={
            <Button size="small" onClick={reload}>
              重新加载
            </Button>
          }
        />
      </PageFrame>
    );
  }
  if (!cut || workType === null) {
    return (
      <PageFrame title="片段编辑" outside>
        <Skeleton active />
      </PageFrame>
    );
  }

  const type = workType as ProjectTypeValue;
  const label = videoTypeLabel(type);
  const mergeField = QUOTA_FIELDS[QUOTA_TYPE_OF_PROJECT[type]].merge;
  const mergesLeft = limits && mergeField ? limits[mergeField] : null;
  const overseas = type === ProjectType.decompressionOverseas;
  const dirty = segments.some((s, i) => {
    const saved = cut.segments[i];
    return !saved || s.text !== saved.text || s.materialId !== saved.materialId;
  });
  const silent = segments.findIndex((s, i) => !s.audioUrl || s.text !== cut.segments[i]?.text);
  // After a failed merge the server offers it again (re_send_merge_request).
  const again = lastResult?.state === 'failed' && cut.finished;

  const change = (index: number, patch: Partial<CutSegment>) =>
    setSegments((current) => current.map((s, i) => (i === index ? { ...s, ...patch } : s)));

  /**
   * Saves first when anything changed: speech and merge use the server's copy. False when the
   * person chose the segments as saved elsewhere (read again, nothing to speak or merge yet).
   */
  const saveIfDirty = async (): Promise<boolean> => !dirty || (await save(segments)) !== null;

  const runSpeech = async (which: 'all' | number) => {
    if (!voiceId) return;
    setSpeaking(which);
    try {
      if (!(await saveIfDirty())) return;
      await speak(voiceId, speed, which === 'all' ? undefined : [which]);
      void message.success(which === 'all' ? '全部片段已配音' : `第 ${which + 1} 个片段已重新配音`);
    } catch (reason) {
      void message.error(
        `配音失败：${reason instanceof Error && !('code' in reason) ? reason.message : errorMessage(reason)}`,
      );
    } finally {
      setSpeaking(null);
    }
  };

  const prepareMerge = async (): Promise<boolean> => {
    if (silent >= 0) {
      void message.error(`第 ${silent + 1} 个片段还没有配音，请先生成配音`);
      return false;
    }
    try {
      return await saveIfDirty();
    } catch (reason) {
      void message.error(errorMessage(reason));
      return false;
    }
  };

  const startMerge = async () => {
    try {
      await merge(again);
      getUserLimitInfo(undefined).then(setLimits, () => undefined);
      navigate(`/video/production?workId=${workId}`);
    } catch (reason) {
      void message.error(errorMessage(reason));
      throw reason;
    }
  };

  const total = segments.reduce((sum, s) => sum + (s.audioDurationMs ?? 0), 0);

  return (
    <PageFrame
      title={`${label} · 片段编辑`}
      outside
      actions={
        <ConfirmButton
          type="primary"
          // Not while speech runs: the merge would take the segments before their new audio.
          disabled={(mergesLeft !== null && mergesLeft <= 0) || speaking !== null}
          prepare={prepareMerge}
          confirmTitle={again ? '重新合成' : '合成视频'}
          confirmContent={`将消耗 1 次「${label}」合成次数${
            mergesLeft !== null ? `（当前剩余 ${mergesLeft} 次）` : ''
          }。合成失败（非素材问题）会自动退回次数。`}
          okText="确认合成"
          onConfirm={startMerge}
        >
          {again ? '重新合成' : '合成视频'}
          {mergesLeft !== null ? `（剩余 ${mergesLeft} 次）` : ''}
        </ConfirmButton>
      }
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        文案按句分成片段，每段有自己的配音和背景。改过的文案要重新配音；合成时按顺序拼接各段配音与背景。
      </Typography.Paragraph>
      {lastResult?.state === 'failed' && lastResult.error && (
        <Alert type="error" showIcon title={`上次生成失败：${lastResult.error}`} />
      )}
      <Flex wrap align="center" gap={16}>
        <div style={{ minWidth: 280 }}>
          <VoicePicker
            language={overseas ? 'en' : 'zh'}
            value={voiceId}
            onChange={setVoiceId}
            speed={speed}
            sampleText={segments[0]?.text ?? ''}
          />
        </div>
        <Flex align="center" gap={8} style={{ minWidth: 220 }}>
          <Typography.Text>语速 {speed.toFixed(1)}×</Typography.Text>
          <Slider
            aria-label="语速"
            style={{ flex: 1 }}
            min={0.5}
            max={2}
            step={0.1}
            value={speed}
            onChange={(value: number) => setSpeed(value)}
          />
        </Flex>
        <Button
          loading={speaking === 'all'}
          disabled={speaking !== null}
          onClick={() => void runSpeech('all')}
        >
          生成全部配音
        </Button>
        <Typography.Text data-testid="cut-summary">
          {segments.length} 个片段，配音共 {(total / 1000).toFixed(1)} 秒
        </Typography.Text>
      </Flex>
      {segments.length === 0 ? (
        <Empty description="这个作品没有片段" />
      ) : (
        <Flex vertical gap={12}>
          {segments.map((segment, index) => (
            <SegmentCard
              key={segment.index}
              segment={segment}
              savedText={cut.segments[index]?.text ?? ''}
              materials={materials}
              busy={speaking === index}
              onChange={(patch) => change(index, patch)}
              onRespeak={() => void runSpeech(index)}
            />
          ))}
        </Flex>
      )}
    </PageFrame>
  );
}

/**
 * `/video/cut?workId=` 片段编辑 (outside the layout): a decompression work's narration split into
 * segments, each with its speech and background; re-speak one, change its background, then
 * merge (one merge count, asked first). A failed user fetch here goes to
 * `/login?returnUrl=/video/cut`: the host's session gate does that.
 */
export function CutPage() {
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  if (workId === null) {
    return (
      <PageFrame title="片段编辑" outside>
        <Empty description="没有指定作品：请从解压视频的结果页进入片段编辑" />
      </PageFrame>
    );
  }
  return <CutEditor key={workId} workId={workId} />;
}
