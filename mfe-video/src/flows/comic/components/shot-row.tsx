import { formatDurationMs } from '@kol/shared-sdk';
import { useRef } from 'react';
import { App, Button, Card, Flex, Input, Popconfirm, Tooltip, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  MergeCellsOutlined,
  ScissorOutlined,
} from '@ant-design/icons';
import type { FlaggedWord } from '../../../flow-kit/flagged-words/flagged-words';

interface ShotRowProps {
  index: number;
  total: number;
  caption: string;
  estimateMs: number;
  flagged: FlaggedWord[];
  onChange: (caption: string) => void;
  onMergeWithNext: () => void;
  onSplitAt: (at: number) => boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onReplace: (word: string, replacement: string) => void;
}

/** One shot: its caption to edit, its estimated length, its flagged words, and what to do with it. */
export function ShotRow({
  index,
  total,
  caption,
  estimateMs,
  flagged,
  onChange,
  onMergeWithNext,
  onSplitAt,
  onMove,
  onRemove,
  onReplace,
}: ShotRowProps) {
  const { message } = App.useApp();
  const area = useRef<TextAreaRef>(null);
  const n = index + 1;

  const split = () => {
    const at = area.current?.resizableTextArea?.textArea.selectionStart ?? 0;
    if (!onSplitAt(at)) void message.warning('请先把光标放在字幕中间要拆分的位置');
  };

  return (
    <Card size="small" role="group" aria-label={`分镜 ${n}`}>
      <Flex vertical gap={6}>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text strong>分镜 {n}</Typography.Text>
          <Typography.Text type="secondary">约 {formatDurationMs(estimateMs)}</Typography.Text>
        </Flex>
        <Input.TextArea
          ref={area}
          aria-label={`第 ${n} 个分镜的字幕`}
          autoSize={{ minRows: 1, maxRows: 6 }}
          value={caption}
          status={caption.trim() ? undefined : 'error'}
          onChange={(event) => onChange(event.target.value)}
        />
        {flagged.length > 0 && (
          <Flex gap={4} wrap align="center">
            <Typography.Text type="warning" style={{ fontSize: 12 }}>
              可能限流：
            </Typography.Text>
            {flagged.map((item) => (
              <Button
                key={item.word}
                size="small"
                type="dashed"
                aria-label={`把「${item.word}」替换为「${item.replacement}」`}
                onClick={() => onReplace(item.word, item.replacement)}
              >
                {item.word} → {item.replacement}
              </Button>
            ))}
          </Flex>
        )}
        <Flex gap={4} wrap justify="flex-end">
          <Tooltip title="上移">
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={`上移第 ${n} 个分镜`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            />
          </Tooltip>
          <Tooltip title="下移">
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={`下移第 ${n} 个分镜`}
              disabled={index === total - 1}
              onClick={() => onMove(1)}
            />
          </Tooltip>
          <Button
            size="small"
            icon={<ScissorOutlined aria-hidden />}
            aria-label={`在光标处拆分第 ${n} 个分镜`}
            onClick={split}
          >
            拆分
          </Button>
          <Button
            size="small"
            icon={<MergeCellsOutlined aria-hidden />}
            aria-label={`把第 ${n} 个分镜与下一个合并`}
            disabled={index === total - 1}
            onClick={onMergeWithNext}
          >
            合并下一个
          </Button>
          <Popconfirm
            title="删除这个分镜？"
            description="它的字幕会从视频文案中删去。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={onRemove}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`删除第 ${n} 个分镜`}
            />
          </Popconfirm>
        </Flex>
      </Flex>
    </Card>
  );
}
