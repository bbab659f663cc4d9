import { useCallback, useMemo, useState } from 'react';
import { Button, Card, Col, Empty, Flex, Row, Tag, Typography } from 'antd';
import { SoundOutlined } from '@ant-design/icons';
import {
  videoTypeLabel,
  type CutVideo,
  type Material,
  type ProjectType,
  type WorkDetail,
  type WorkResult,
} from '@kol/shared-sdk';
import { useCutDraft } from '../api/use-cut-draft';
import { useMaterials, useMusic, useVoices, voiceLanguageOf } from '../api/use-editor-options';
import { useRedraw } from '../api/use-redraw';
import { useSegmentSpeech } from '../api/use-segment-speech';
import { useVideoProgress } from '../api/use-video-progress';
import type { CutEditorTiming } from '../constants';
import { moveSegment, patchSegment, spokenMs, unspokenCount, type LocalSegment } from '../model';
import { MergeButton } from './merge-button';
import { MusicControls } from './music-controls';
import { SaveIndicator } from './save-indicator';
import { SegmentPanel } from './segment-panel';
import { SpeechSettings } from './speech-settings';
import { Timeline } from './timeline';
import { VideoSection } from './video-section';

interface CutEditorProps {
  work: WorkDetail;
  cut: CutVideo;
  result: WorkResult | null;
  resultError: string | null;
  timing: CutEditorTiming;
  /** Loads the work and its cut video again (after the person chose the newest version). */
  onReload: () => void;
  /**
   * A merge was started (after its confirmation): the page may lead on, as `/video/cut` leads
   * to the video flow's progress page. Without it the editor follows the merge itself.
   */
  onMergeStarted?: (taskId: string) => void;
}

/**
 * The editor of a work's cut video: the current video on top, the segments' timeline, the
 * chosen segment's panel, the music, and 全部配音 / 重新合成 (or 为未配音片段配音 first). Every edit
 * is saved as it is made.
 */
export function CutEditor({
  work,
  cut,
  result,
  resultError,
  timing,
  onReload,
  onMergeStarted,
}: CutEditorProps) {
  const workId = work.workId;
  const type = work.type as ProjectType;
  const { draft, status, edit, editSegment, flush, adoptFetched, currentSegments } = useCutDraft(
    workId,
    cut,
    timing.saveDelayMs,
    onReload,
  );
  const voices = useVoices(voiceLanguageOf(type));
  const music = useMusic();
  const withMaterials = draft.segments.some((segment) => segment.materialId !== null);
  const materialList = useMaterials(withMaterials);
  const materials = useMemo(
    () => new Map<number, Material>(materialList.items.map((m) => [m.materialId, m])),
    [materialList.items],
  );
  const [selectedKey, setSelectedKey] = useState<string | null>(
    () => draft.segments[0]?.key ?? null,
  );

  // 整体配音 and 整体语速: the cut video's voice until another is chosen; the speed unset (1×).
  const [chosenVoiceId, setChosenVoiceId] = useState<string | undefined>(
    () => cut.voiceId || undefined,
  );
  const [overallSpeed, setOverallSpeed] = useState<number | null>(null);
  const overallVoiceId = chosenVoiceId ?? voices.items[0]?.voiceId;

  const progress = useVideoProgress({
    workId,
    initial: result,
    progressPollMs: timing.progressPollMs,
  });
  const speech = useSegmentSpeech({
    workId,
    voiceId: overallVoiceId,
    speed: overallSpeed,
    taskPollMs: timing.taskPollMs,
    flush,
    segments: currentSegments,
    onFetched: adoptFetched,
  });
  const onDrawn = useCallback(
    (key: string, imageUrl: string) => {
      editSegment(key, (segment) => patchSegment(segment, { imageUrl }));
      void flush();
    },
    [editSegment, flush],
  );
  const { drawing, redraw } = useRedraw({ workId, taskPollMs: timing.taskPollMs, onDrawn });

  const moveSegmentAt = useCallback(
    (from: number, to: number) =>
      edit((current) => ({ ...current, segments: moveSegment(current.segments, from, to) })),
    [edit],
  );
  const changeMusic = useCallback(
    (change: { musicId?: number | null; musicVolume?: number | null }) =>
      edit((current) => ({ ...current, ...change })),
    [edit],
  );

  const voiceName = (voiceId: string | undefined) =>
    voices.items.find((voice) => voice.voiceId === voiceId)?.name ?? voiceId ?? '默认配音';
  const voiceNameOf = (segment: LocalSegment) =>
    segment.voiceId ? voiceName(segment.voiceId) : `${voiceName(overallVoiceId)}（整体）`;

  const selectedIndex = draft.segments.findIndex((segment) => segment.key === selectedKey);
  const selected = draft.segments[selectedIndex];
  const speakingKeys = speech.run?.keys ?? [];
  const drawingKeys = Object.entries(drawing)
    .filter(([, state]) => state.busy)
    .map(([key]) => key);
  const unspoken = unspokenCount(draft.segments);
  // The merge to send again (re_send_merge_request): one started here that failed, or, on
  // opening, a failed task of a cut already finished (end_cut_video runs just before a merge).
  const failedOnOpening = cut.finished && result?.state === 'failed' ? result.taskId : null;
  const resend =
    progress.result?.state === 'failed' &&
    (progress.result.taskId === progress.startedTask ||
      (progress.startedTask === null && progress.result.taskId === failedOnOpening));
  const followMerge = progress.started;
  const mergeStarted = useCallback(
    (taskId: string) => {
      followMerge(taskId);
      onMergeStarted?.(taskId);
    },
    [followMerge, onMergeStarted],
  );

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200, width: '100%' }}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Flex align="center" gap={8} wrap>
          <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
            视频编辑 · {work.title}
          </Typography.Title>
          <Tag>{videoTypeLabel(type)}</Tag>
        </Flex>
        <SaveIndicator status={status} onRetry={() => void flush()} />
      </Flex>

      <Row gutter={[16, 16]}>
        <Col xs={24} md={10}>
          <Card size="small" title="当前视频">
            <VideoSection
              result={progress.result}
              resultError={resultError}
              video={progress.video}
              running={progress.running}
              polling={progress.polling}
              madeHere={progress.madeHere}
            />
          </Card>
        </Col>
        <Col xs={24} md={14}>
          <Card size="small" title="配音与合成">
            <Flex vertical gap={16}>
              <Typography.Text type="secondary" data-testid="cut-summary">
                共 {draft.segments.length} 个片段
                {unspoken > 0 ? `，${unspoken} 个未配音` : '，都已配音'}
                {`，配音共 ${(spokenMs(draft.segments) / 1000).toFixed(1)} 秒`}
                。改过的片段需重新配音后才能合成。
              </Typography.Text>
              <SpeechSettings
                voices={voices.items}
                voicesLoading={voices.loading}
                voiceId={overallVoiceId}
                speed={overallSpeed}
                onVoice={setChosenVoiceId}
                onSpeed={setOverallSpeed}
              />
              <Flex gap={8} wrap>
                <Button
                  icon={<SoundOutlined aria-hidden />}
                  loading={speech.run?.all === true}
                  disabled={speech.run !== null}
                  onClick={() => void speech.speak()}
                >
                  全部配音
                </Button>
                <MergeButton
                  workId={workId}
                  type={type}
                  unspoken={unspoken}
                  busy={progress.running || speech.run !== null}
                  resend={resend}
                  flush={flush}
                  onSpeakUnspoken={() =>
                    void speech.speak(
                      draft.segments.filter((segment) => !segment.audioUrl).map((s) => s.key),
                    )
                  }
                  onStarted={mergeStarted}
                />
              </Flex>
              {speech.failure && (
                <Typography.Text type="danger">配音失败：{speech.failure}</Typography.Text>
              )}
              <MusicControls
                musicId={draft.musicId}
                musicVolume={draft.musicVolume}
                tracks={music.items}
                loading={music.loading}
                error={music.error}
                onChange={changeMusic}
              />
            </Flex>
          </Card>
        </Col>
      </Row>

      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card size="small" title="时间线（拖动或用箭头调整顺序）">
            {draft.segments.length === 0 ? (
              <Empty description="没有片段" />
            ) : (
              <Timeline
                segments={draft.segments}
                selectedKey={selectedKey}
                speakingKeys={speakingKeys}
                drawingKeys={drawingKeys}
                voiceNameOf={voiceNameOf}
                materials={materials}
                onSelect={setSelectedKey}
                onMove={moveSegmentAt}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <div style={{ position: 'sticky', top: 16 }}>
            {selected ? (
              <SegmentPanel
                key={selected.key}
                segment={selected}
                position={selectedIndex}
                voices={voices.items}
                voicesError={voices.error}
                overallVoiceId={overallVoiceId}
                overallSpeed={overallSpeed}
                material={
                  selected.materialId === null ? undefined : materials.get(selected.materialId)
                }
                materials={materialList.items}
                onChange={(patch) =>
                  editSegment(selected.key, (segment) => patchSegment(segment, patch))
                }
                speechBusy={speech.run !== null}
                speaking={speakingKeys.includes(selected.key)}
                onRegenerate={() => void speech.speak([selected.key])}
                redraw={drawing[selected.key]}
                onRedraw={(prompt) => void redraw(selected.key, prompt)}
              />
            ) : (
              <Card size="small">
                <Empty description="点选左侧的片段进行编辑" />
              </Card>
            )}
          </div>
        </Col>
      </Row>
    </Flex>
  );
}
