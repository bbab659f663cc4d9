import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Divider,
  Flex,
  Image,
  Input,
  InputNumber,
  Select,
  Typography,
} from 'antd';
import { PictureOutlined, ReloadOutlined, SoundOutlined, UploadOutlined } from '@ant-design/icons';
import {
  formatDurationMs,
  mediaUrl,
  ttsAudition,
  type AudioClip,
  type CutSegment,
  type Material,
  type Voice,
  errorMessage,
  voiceEngineNote,
} from '@kol/shared-sdk';
import type { RedrawState } from '../api/use-redraw';
import { AUDITION_MAX_CHARS, DEFAULT_LOOP_MS, SPEED_MAX, SPEED_MIN } from '../constants';
import { formatWindowTime, textChangedSinceSpoken, type LocalSegment } from '../model';
import { PictureChooser } from './picture-chooser';

/** The voice select's value for 跟随整体 (no voice of the segment's own). */
const FOLLOW = '';

interface SegmentPanelProps {
  segment: LocalSegment;
  position: number;
  voices: Voice[];
  voicesError: string | null;
  /** The voice and speed of the whole (跟随整体), what the segment is spoken with unless its own. */
  overallVoiceId: string | undefined;
  overallSpeed: number | null;
  material: Material | undefined;
  /** The library's loops a segment over a background may change to. */
  materials: Material[];
  onChange: (patch: Partial<CutSegment>) => void;
  /** A speech task runs (of this segment: `speaking`). */
  speechBusy: boolean;
  speaking: boolean;
  onRegenerate: () => void;
  redraw: RedrawState | undefined;
  onRedraw: (prompt: string) => void;
}

/**
 * The chosen segment: its caption and its speech as made (played here), voice and speed (with
 * 试听 before anything is spent), its picture (重新绘制 from a description, or one of the
 * user's uploads) or, for a segment over a background material, the loop of the library it
 * shows and its window; and 重新生成此片段 (speaks it again alone). Mounted per segment (keyed),
 * so the description starts from the segment's text.
 */
export function SegmentPanel({
  segment,
  position,
  voices,
  voicesError,
  overallVoiceId,
  overallSpeed,
  material,
  materials,
  onChange,
  speechBusy,
  speaking,
  onRegenerate,
  redraw,
  onRedraw,
}: SegmentPanelProps) {
  const { message } = App.useApp();
  const n = position + 1;
  const [prompt, setPrompt] = useState(segment.text);
  const [audition, setAudition] = useState<{ loading: boolean; clip: AudioClip | null }>({
    loading: false,
    clip: null,
  });
  const [choosing, setChoosing] = useState(false);
  const overallName = voices.find((voice) => voice.voiceId === overallVoiceId)?.name;
  const voiceId = segment.voiceId ?? overallVoiceId ?? voices[0]?.voiceId;
  const speed = segment.speed ?? overallSpeed ?? undefined;
  // A loop the list does not hold (an upload, or the list not in yet) stays shown.
  const loopOptions = [
    ...(segment.materialId !== null && !materials.some((m) => m.materialId === segment.materialId)
      ? [{ value: segment.materialId, label: material?.name ?? `素材 ${segment.materialId}` }]
      : []),
    ...materials.map((m) => ({ value: m.materialId, label: m.name })),
  ];

  const listen = async () => {
    const text = segment.text.trim().slice(0, AUDITION_MAX_CHARS);
    if (!text) {
      void message.warning('请先填写片段文案');
      return;
    }
    if (!voiceId) {
      void message.error('没有可用的配音音色');
      return;
    }
    setAudition({ loading: true, clip: null });
    try {
      const clip = await ttsAudition({
        text,
        voiceId,
        ...(speed !== undefined ? { speed } : {}),
      });
      setAudition({ loading: false, clip });
    } catch (error) {
      setAudition({ loading: false, clip: null });
      void message.error(`试听失败：${errorMessage(error)}`);
    }
  };

  return (
    <Card
      size="small"
      title={`片段 ${n}`}
      data-testid="segment-panel"
      extra={
        <Button
          icon={<ReloadOutlined aria-hidden />}
          loading={speaking}
          disabled={speechBusy && !speaking}
          onClick={onRegenerate}
        >
          {speaking ? '配音中…' : '重新生成此片段'}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Flex vertical gap={4}>
          <Typography.Text strong>片段文案</Typography.Text>
          <Input.TextArea
            aria-label="片段文案"
            value={segment.text}
            maxLength={2000}
            showCount
            rows={4}
            onChange={(event) => onChange({ text: event.target.value })}
          />
          {segment.audioUrl ? (
            <Flex wrap align="center" gap={8}>
              <audio
                aria-label={`第 ${n} 个片段的配音`}
                controls
                preload="none"
                src={mediaUrl(segment.audioUrl)}
                style={{ height: 32 }}
              />
              {segment.audioDurationMs !== undefined && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  配音 {(segment.audioDurationMs / 1000).toFixed(1)} 秒
                </Typography.Text>
              )}
            </Flex>
          ) : textChangedSinceSpoken(segment) ? (
            <Typography.Text type="warning" style={{ fontSize: 12 }}>
              文案已修改，需要重新配音
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              这个片段还没有配音（改过文案、配音或语速后需要重新生成）
            </Typography.Text>
          )}
        </Flex>

        <Flex gap={12} wrap align="end">
          <Flex vertical gap={4} style={{ flex: 1, minWidth: 180 }}>
            <Typography.Text strong>片段配音</Typography.Text>
            <Select
              aria-label="片段配音"
              value={segment.voiceId ?? FOLLOW}
              loading={voices.length === 0 && !voicesError}
              onChange={(value: string) =>
                onChange({ voiceId: value === FOLLOW ? undefined : value })
              }
              options={[
                { value: FOLLOW, label: `跟随整体${overallName ? `（${overallName}）` : ''}` },
                ...voices.map((voice) => ({ value: voice.voiceId, label: voice.name })),
              ]}
            />
            {voices.length > 0 && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {voiceEngineNote(voices)}
              </Typography.Text>
            )}
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text strong>语速</Typography.Text>
            <InputNumber
              aria-label="语速"
              min={SPEED_MIN}
              max={SPEED_MAX}
              step={0.1}
              precision={1}
              placeholder="1.0"
              value={segment.speed ?? null}
              onChange={(value) => onChange({ speed: value ?? undefined })}
              style={{ width: 100 }}
            />
          </Flex>
          <Button
            icon={<SoundOutlined aria-hidden />}
            loading={audition.loading}
            onClick={() => void listen()}
          >
            试听
          </Button>
        </Flex>
        {voicesError && (
          <Alert type="warning" showIcon title={`配音音色加载失败：${voicesError}`} />
        )}
        {audition.clip && (
          <Flex vertical gap={4}>
            <audio controls aria-label="试听" src={mediaUrl(audition.clip.audioUrl)} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              试听时长 {formatDurationMs(audition.clip.durationMs)}
              （不影响片段的配音，满意后点「重新生成此片段」）
            </Typography.Text>
          </Flex>
        )}

        <Divider style={{ margin: '4px 0' }} />

        {segment.materialId !== null ? (
          <Flex vertical gap={4}>
            <Typography.Text strong>背景素材</Typography.Text>
            <Select
              aria-label="背景素材"
              value={segment.materialId}
              onChange={(materialId: number) => {
                const chosen = materials.find((m) => m.materialId === materialId);
                // The whole loop: the server refuses a window past the material's end.
                onChange({ materialId, startMs: 0, endMs: chosen?.durationMs || DEFAULT_LOOP_MS });
              }}
              options={loopOptions}
            />
            <Flex gap={12} align="center">
              {material?.coverUrl && (
                <Image
                  src={mediaUrl(material.coverUrl)}
                  alt={`素材 ${material.name}`}
                  width={72}
                  height={96}
                  style={{ objectFit: 'cover', borderRadius: 4 }}
                  preview={false}
                />
              )}
              <Typography.Text>
                {material?.name ?? `素材 ${segment.materialId}`}：
                {formatWindowTime(segment.startMs)} – {formatWindowTime(segment.endMs)}
              </Typography.Text>
            </Flex>
          </Flex>
        ) : (
          <Flex vertical gap={8}>
            <Typography.Text strong>片段画面</Typography.Text>
            {segment.imageUrl ? (
              <Image
                src={mediaUrl(segment.imageUrl)}
                alt={`片段 ${n} 当前画面`}
                width={150}
                style={{ borderRadius: 4 }}
              />
            ) : (
              <Typography.Text type="secondary">使用作品原有的分镜画面</Typography.Text>
            )}
            <Input.TextArea
              aria-label="画面描述"
              value={prompt}
              maxLength={2000}
              rows={3}
              onChange={(event) => setPrompt(event.target.value)}
            />
            <Flex gap={8} wrap>
              <Button
                icon={<PictureOutlined aria-hidden />}
                loading={redraw?.busy}
                disabled={!prompt.trim()}
                onClick={() => onRedraw(prompt.trim())}
              >
                {redraw?.busy ? '绘制中…' : '重新绘制'}
              </Button>
              <Button icon={<UploadOutlined aria-hidden />} onClick={() => setChoosing(true)}>
                选择已上传图片
              </Button>
            </Flex>
            {redraw?.error ? (
              <Alert type="error" showIcon title={`绘制失败：${redraw.error}`} />
            ) : (
              redraw?.engine &&
              !redraw.busy && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  新画面由「{redraw.engine}」绘制
                </Typography.Text>
              )
            )}
            <PictureChooser
              open={choosing}
              onClose={() => setChoosing(false)}
              onChoose={(url) => {
                setChoosing(false);
                onChange({ imageUrl: url });
              }}
            />
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
