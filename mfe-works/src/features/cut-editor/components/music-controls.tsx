import { memo } from 'react';
import { Alert, Flex, Select, Slider, Typography } from 'antd';
import { MUSIC_VOLUME_DEFAULT, formatDurationMs, type Music } from '@kol/shared-sdk';

/** The select's values for the two choices that are not a track. */
const OWN = 'own';
const NONE = 0;

interface MusicControlsProps {
  musicId: number | null;
  musicVolume: number | null;
  tracks: Music[];
  loading: boolean;
  error: string | null;
  onChange: (change: { musicId?: number | null; musicVolume?: number | null }) => void;
}

/** 背景音乐 (the work's own, none, or a track) and 音乐音量 (0–100 % of full gain). */
export const MusicControls = memo(function MusicControls({
  musicId,
  musicVolume,
  tracks,
  loading,
  error,
  onChange,
}: MusicControlsProps) {
  const percent = Math.round((musicVolume ?? MUSIC_VOLUME_DEFAULT) * 100);
  const known = musicId === null || musicId === NONE || tracks.some((t) => t.musicId === musicId);

  return (
    <Flex vertical gap={8}>
      <Flex vertical gap={4}>
        <Typography.Text strong>背景音乐</Typography.Text>
        <Select
          aria-label="背景音乐"
          value={musicId ?? OWN}
          loading={loading}
          onChange={(value: number | typeof OWN) =>
            onChange({ musicId: value === OWN ? null : value })
          }
          options={[
            { value: OWN, label: '作品原配乐' },
            { value: NONE, label: '无音乐' },
            ...(known || musicId === null ? [] : [{ value: musicId, label: `音乐 ${musicId}` }]),
            ...tracks.map((track) => ({
              value: track.musicId,
              label: `${track.name}（${formatDurationMs(track.durationMs)}）`,
            })),
          ]}
        />
      </Flex>
      {error && <Alert type="warning" showIcon title={`音乐列表加载失败：${error}`} />}
      <Flex vertical gap={4}>
        <Typography.Text strong>
          音乐音量 <Typography.Text type="secondary">{percent}%</Typography.Text>
        </Typography.Text>
        <Slider
          ariaLabelForHandle="音乐音量"
          min={0}
          max={100}
          step={5}
          value={percent}
          disabled={musicId === NONE}
          tooltip={{ formatter: (value) => `${value ?? 0}%` }}
          onChange={(value: number) => onChange({ musicVolume: value / 100 })}
        />
      </Flex>
    </Flex>
  );
});
