import { memo, type DragEvent, type KeyboardEvent } from 'react';
import { Button, Card, Flex, Tag, Typography, theme } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined } from '@ant-design/icons';
import { formatDurationMs, mediaUrl, type Material } from '@kol/shared-sdk';
import { formatWindowTime, textChangedSinceSpoken, type LocalSegment } from '../model';

interface SegmentCardProps {
  segment: LocalSegment;
  /** 0-based position in the timeline. */
  position: number;
  total: number;
  voiceName: string;
  /** The background material of a segment with one. */
  material: Material | undefined;
  selected: boolean;
  speaking: boolean;
  drawing: boolean;
  dragOver: boolean;
  /** The handlers take the segment's key or position, so they stay the same between renders. */
  onSelect: (key: string) => void;
  onMove: (from: number, to: number) => void;
  onDragStart: (position: number, event: DragEvent) => void;
  onDragOver: (position: number, event: DragEvent) => void;
  onDragEnd: () => void;
  onDrop: (position: number, event: DragEvent) => void;
}

const THUMB = { width: 72, height: 96 };

function Thumbnail({
  segment,
  material,
  n,
}: {
  segment: LocalSegment;
  material?: Material;
  n: number;
}) {
  const { token } = theme.useToken();
  const url = segment.materialId === null ? segment.imageUrl : material?.coverUrl;
  if (url)
    return (
      <img
        src={mediaUrl(url)}
        alt={`片段 ${n} 画面`}
        {...THUMB}
        loading="lazy"
        style={{ objectFit: 'cover', borderRadius: 4, flex: 'none' }}
      />
    );
  return (
    <Flex
      align="center"
      justify="center"
      style={{
        ...THUMB,
        background: token.colorFillTertiary,
        borderRadius: 4,
        fontSize: 12,
        flex: 'none',
      }}
    >
      <Typography.Text type="secondary">
        {segment.materialId === null ? '原画面' : '素材'}
      </Typography.Text>
    </Flex>
  );
}

/**
 * One segment of the timeline: its picture (or its material window), caption, voice and
 * length; chosen for editing with a click; moved by dragging or with 上移 / 下移. Memoised: an
 * edit of one segment renders only its card (a timeline may hold hundreds).
 */
export const SegmentCard = memo(function SegmentCard({
  segment,
  position,
  total,
  voiceName,
  material,
  selected,
  speaking,
  drawing,
  dragOver,
  onSelect,
  onMove,
  onDragStart,
  onDragOver,
  onDragEnd,
  onDrop,
}: SegmentCardProps) {
  // The theme's primary marks the chosen segment (antd's default blue is off the palette).
  const { token } = theme.useToken();
  const n = position + 1;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(segment.key);
    }
  };

  return (
    <div
      role="group"
      aria-label={`片段 ${n}`}
      data-testid={`segment-${n}`}
      draggable
      onDragStart={(event) => onDragStart(position, event)}
      onDragOver={(event) => onDragOver(position, event)}
      onDragEnd={onDragEnd}
      onDrop={(event) => onDrop(position, event)}
    >
      <Card
        size="small"
        hoverable
        onClick={() => onSelect(segment.key)}
        onKeyDown={onKeyDown}
        tabIndex={0}
        aria-current={selected ? 'true' : undefined}
        style={{
          borderColor: selected
            ? token.colorPrimary
            : dragOver
              ? token.colorPrimaryBorderHover
              : undefined,
          borderStyle: dragOver ? 'dashed' : undefined,
          boxShadow: selected ? `0 0 0 1px ${token.colorPrimary}` : undefined,
          cursor: 'pointer',
        }}
      >
        <Flex gap={12} align="start">
          <Flex vertical align="center" gap={4} style={{ flex: 'none' }}>
            <HolderOutlined aria-hidden style={{ cursor: 'grab', color: '#999' }} />
            <Typography.Text strong>{n}</Typography.Text>
          </Flex>
          <Thumbnail segment={segment} material={material} n={n} />
          <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Typography.Paragraph ellipsis={{ rows: 3 }} style={{ margin: 0 }}>
              {segment.text || '（空）'}
            </Typography.Paragraph>
            <Flex gap={6} wrap align="center">
              {/* A character's line: captioned with the name, which is not spoken. */}
              {segment.speaker && <Tag color="blue">角色：{segment.speaker}</Tag>}
              <Tag>{voiceName}</Tag>
              {segment.speed !== undefined && <Tag>{segment.speed} 倍速</Tag>}
              {speaking ? (
                <Tag color="processing">配音中…</Tag>
              ) : segment.audioUrl ? (
                <Tag color="success">
                  {segment.audioDurationMs !== undefined
                    ? formatDurationMs(segment.audioDurationMs)
                    : '已配音'}
                </Tag>
              ) : (
                <Tag color="warning">未配音</Tag>
              )}
              {!speaking && textChangedSinceSpoken(segment) && (
                <Typography.Text type="warning" style={{ fontSize: 12 }}>
                  文案已修改，需要重新配音
                </Typography.Text>
              )}
              {drawing && <Tag color="processing">绘制中…</Tag>}
              {segment.materialId !== null && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {material?.name ?? `素材 ${segment.materialId}`} ·{' '}
                  {formatWindowTime(segment.startMs)}–{formatWindowTime(segment.endMs)}
                </Typography.Text>
              )}
            </Flex>
          </Flex>
          <Flex vertical gap={4} style={{ flex: 'none' }}>
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={`上移片段 ${n}`}
              disabled={position === 0}
              onClick={(event) => {
                event.stopPropagation();
                onMove(position, position - 1);
              }}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={`下移片段 ${n}`}
              disabled={position === total - 1}
              onClick={(event) => {
                event.stopPropagation();
                onMove(position, position + 1);
              }}
            />
          </Flex>
        </Flex>
      </Card>
    </div>
  );
});
