import { formatDurationMs } from '@kol/shared-sdk';
import { useState } from 'react';
import { Alert, Button, Flex, Input, Radio, Spin, Tag, Typography } from 'antd';
import { AudioPreview } from '../../../components/audio-preview';
import { useMusic } from '../api/use-music';

/** `musicId` 0 is no music; no choice at all lets the server pick the work's default track. */
export const NO_MUSIC = 0;
const DEFAULT_MUSIC = 'default';

interface MusicPickerProps {
  /** undefined: the default track. */
  value: number | undefined;
  onChange: (musicId: number | undefined) => void;
}

/** 背景音乐: the library or a search in it, each track with a preview to listen to. */
export function MusicPicker({ value, onChange }: MusicPickerProps) {
  const [keyword, setKeyword] = useState('');
  const { tracks, loading, error, reload } = useMusic(keyword);

  return (
    <Flex vertical gap={8}>
      <Input.Search
        aria-label="搜索音乐"
        placeholder="按名称或标签搜索，如 平静"
        allowClear
        enterButton="搜索"
        maxLength={50}
        onSearch={(text) => setKeyword(text.trim())}
      />
      {error && (
        <Alert
          type="error"
          showIcon
          title={`音乐加载失败：${error}`}
          action={
            <Button size="small" onClick={reload}>
              重新加载
            </Button>
          }
        />
      )}
      <Radio.Group
        aria-label="背景音乐"
        value={value ?? DEFAULT_MUSIC}
        onChange={(event) => {
          const chosen: unknown = event.target.value;
          onChange(chosen === DEFAULT_MUSIC ? undefined : Number(chosen));
        }}
        style={{ width: '100%' }}
      >
        <Flex vertical gap={6} style={{ maxHeight: 280, overflowY: 'auto' }}>
          <Radio value={DEFAULT_MUSIC}>默认配乐（自动选择）</Radio>
          <Radio value={NO_MUSIC}>无背景音乐</Radio>
          {loading ? (
            <Spin size="small" />
          ) : tracks.length === 0 && keyword ? (
            <Typography.Text type="secondary">没有找到“{keyword}”相关的音乐</Typography.Text>
          ) : (
            tracks.map((track) => (
              <Flex key={track.musicId} align="center" gap={8}>
                <AudioPreview url={track.url} label={`试听 ${track.name}`} />
                <Radio value={track.musicId}>
                  {track.name}
                  <Typography.Text type="secondary" style={{ marginLeft: 6, fontSize: 12 }}>
                    {formatDurationMs(track.durationMs)}
                  </Typography.Text>
                </Radio>
                {track.tags.map((tag) => (
                  <Tag key={tag}>{tag}</Tag>
                ))}
              </Flex>
            ))
          )}
        </Flex>
      </Radio.Group>
    </Flex>
  );
}
