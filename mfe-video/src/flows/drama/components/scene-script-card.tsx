import { formatDurationMs } from '@kol/shared-sdk';
import { AutoComplete, Button, Card, Flex, Input, Popconfirm, Tooltip, Typography } from 'antd';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import type { OperaDraftScene } from '../draft';
import {
  MAX_LINE_CHARS,
  MAX_LINES_PER_SCENE,
  MAX_SPEAKER_CHARS,
  type OperaLine,
} from '../opera-flow';

interface SceneScriptCardProps {
  index: number;
  total: number;
  scene: OperaDraftScene;
  /** Every character of the script, offered when a speaker is typed. */
  speakers: readonly string[];
  /** How long the scene lasts once spoken (the page estimates the whole script at once). */
  estimateMs: number;
  onLineChange: (lineIndex: number, patch: Partial<Pick<OperaLine, 'speaker' | 'text'>>) => void;
  onAddLine: () => void;
  onMoveLine: (lineIndex: number, by: -1 | 1) => void;
  onRemoveLine: (lineIndex: number) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** One scene of the script: its lines in order, each a character and what they say. */
export function SceneScriptCard({
  index,
  total,
  scene,
  speakers,
  estimateMs,
  onLineChange,
  onAddLine,
  onMoveLine,
  onRemoveLine,
  onMove,
  onRemove,
}: SceneScriptCardProps) {
  const n = index + 1;
  return (
    <Card
      size="small"
      role="group"
      aria-label={`场景 ${n}`}
      title={
        <Flex gap={8} align="baseline" wrap>
          <span>场景 {n}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {scene.lines.length} 句 · 约 {formatDurationMs(estimateMs)}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Flex gap={4}>
          <Tooltip title="上移场景">
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={`上移第 ${n} 个场景`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            />
          </Tooltip>
          <Tooltip title="下移场景">
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={`下移第 ${n} 个场景`}
              disabled={index === total - 1}
              onClick={() => onMove(1)}
            />
          </Tooltip>
          <Popconfirm
            title={`删除场景 ${n}？`}
            description={`它的 ${scene.lines.length} 句台词${scene.mediaUrl ? '和上传的素材' : ''}会一起删除。`}
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={onRemove}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`删除第 ${n} 个场景`}
            />
          </Popconfirm>
        </Flex>
      }
    >
      <Flex vertical gap={8}>
        {scene.lines.map((line, j) => {
          const where = `第 ${n} 个场景第 ${j + 1} 句`;
          return (
            <Flex key={line.key} gap={8} align="flex-start" wrap>
              <AutoComplete
                aria-label={`${where}的角色`}
                placeholder="角色"
                style={{ width: 128 }}
                maxLength={MAX_SPEAKER_CHARS}
                value={line.speaker}
                status={line.speaker.trim() ? undefined : 'error'}
                options={speakers.map((value) => ({ value }))}
                onChange={(value: string) => onLineChange(j, { speaker: value })}
              />
              <Input.TextArea
                aria-label={`${where}的台词`}
                placeholder="台词"
                style={{ flex: 1, minWidth: 200 }}
                autoSize={{ minRows: 1, maxRows: 4 }}
                maxLength={MAX_LINE_CHARS}
                value={line.text}
                status={line.text.trim() ? undefined : 'error'}
                onChange={(event) => onLineChange(j, { text: event.target.value })}
              />
              <Flex gap={4}>
                <Button
                  size="small"
                  icon={<ArrowUpOutlined aria-hidden />}
                  aria-label={`上移${where}`}
                  disabled={j === 0}
                  onClick={() => onMoveLine(j, -1)}
                />
                <Button
                  size="small"
                  icon={<ArrowDownOutlined aria-hidden />}
                  aria-label={`下移${where}`}
                  disabled={j === scene.lines.length - 1}
                  onClick={() => onMoveLine(j, 1)}
                />
                <Popconfirm
                  title="删除这句台词？"
                  okText="删除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={() => onRemoveLine(j)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`删除${where}`}
                  />
                </Popconfirm>
              </Flex>
            </Flex>
          );
        })}
        <Button
          type="dashed"
          icon={<PlusOutlined aria-hidden />}
          disabled={scene.lines.length >= MAX_LINES_PER_SCENE}
          onClick={onAddLine}
          aria-label={`给场景 ${n} 添加台词`}
        >
          添加台词
        </Button>
      </Flex>
    </Card>
  );
}
