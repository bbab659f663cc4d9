import { Alert, Card, Flex, Image, Tag, Typography } from 'antd';
import { ANIME_NARRATOR, mediaUrl, type Shot } from '@kol/shared-sdk';
import { AudioPreview } from '../../../components/audio-preview';
import { QualityActionButton } from '../../../components/quality-action';
import type { ShotVoice } from '../api/use-shot-voices';
import type { ShotWarning } from '../shot-warnings';

interface CheckShotRowProps {
  shot: Shot;
  voice: ShotVoice | undefined;
  warnings: ShotWarning[];
  /** Where the shot's picture is drawn again (the storyboard page). */
  redraw: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} 秒`;

/**
 * One shot in the final check: picture, speaker and line, its voice to play, timing, warnings
 * (each with what fixes it: redraw on the storyboard page, or an image service configured).
 */
export function CheckShotRow({ shot, voice, warnings, redraw }: CheckShotRowProps) {
  const n = shot.index + 1;
  const speaker = shot.speaker ?? ANIME_NARRATOR;
  return (
    <Card size="small" role="group" aria-label={`检查镜头 ${n}`}>
      <Flex gap={12} align="start" wrap>
        {shot.imageUrl ? (
          <Image
            src={mediaUrl(shot.imageUrl)}
            alt={`第 ${n} 个镜头的画面`}
            width={72}
            style={{ borderRadius: 4 }}
          />
        ) : (
          <Flex
            align="center"
            justify="center"
            style={{ width: 72, height: 128, border: '1px dashed #555', borderRadius: 4 }}
          >
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              无画面
            </Typography.Text>
          </Flex>
        )}
        <Flex vertical gap={4} style={{ flex: 1, minWidth: 200 }}>
          <Flex gap={8} wrap align="center">
            <Typography.Text strong>镜头 {n}</Typography.Text>
            {shot.camera && <Tag>{shot.camera}</Tag>}
            {shot.scene && <Tag>{shot.scene}</Tag>}
            <Tag color={speaker === ANIME_NARRATOR ? 'default' : 'magenta'}>{speaker}</Tag>
          </Flex>
          <Typography.Text>{shot.line ?? shot.caption}</Typography.Text>
          {warnings.map((warning) => (
            <Alert
              key={warning.text}
              type="warning"
              showIcon
              title={warning.text}
              action={
                warning.action && <QualityActionButton action={warning.action} redraw={redraw} />
              }
            />
          ))}
          {voice?.state === 'failed' && voice.error && (
            <Typography.Text type="warning">{voice.error}</Typography.Text>
          )}
        </Flex>
        <Flex vertical align="center" gap={4} style={{ width: 96 }}>
          <AudioPreview
            url={voice?.audioUrl || undefined}
            label={`播放第 ${n} 个镜头的配音`}
            disabled={voice?.state !== 'done'}
          />
          <Typography.Text type="secondary" aria-label={`第 ${n} 个镜头的时长`}>
            {voice?.state === 'done'
              ? seconds(voice.durationMs)
              : voice?.state === 'failed'
                ? '时长未知'
                : '配音中…'}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
