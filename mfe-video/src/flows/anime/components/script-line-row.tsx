import { AutoComplete, Button, Card, Flex, Input, Tag, Tooltip, Typography } from 'antd';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { ANIME_NARRATOR } from '@kol/shared-sdk';
import { ConfirmButton } from '../../../components/confirm-button';
import { MAX_LINE_CHARS, type ScriptLine } from '../anime-script';

interface ScriptLineRowProps {
  line: ScriptLine;
  index: number;
  count: number;
  /** The speakers of the script, offered when the speaker is changed. */
  speakers: readonly string[];
  /** Flagged words in this line, each with its safer wording. */
  flagged: ReadonlyArray<{ word: string; replacement: string }>;
  onEdit: (patch: Partial<Pick<ScriptLine, 'speaker' | 'text'>>) => void;
  onAddAfter: () => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => Promise<void>;
}

/** One line of the script: who says it (the narrator too), what they say, and its actions. */
export function ScriptLineRow({
  line,
  index,
  count,
  speakers,
  flagged,
  onEdit,
  onAddAfter,
  onMove,
  onDelete,
}: ScriptLineRowProps) {
  const n = index + 1;
  const options = [ANIME_NARRATOR, ...speakers.filter((name) => name !== ANIME_NARRATOR)].map(
    (name) => ({ value: name }),
  );
  return (
    <Card size="small" role="group" aria-label={`第 ${n} 行`}>
      <Flex gap={8} align="start" wrap>
        <Typography.Text type="secondary" style={{ width: 28, paddingTop: 5 }}>
          {n}
        </Typography.Text>
        <AutoComplete
          aria-label={`第 ${n} 行的角色`}
          style={{ width: 128 }}
          options={options}
          value={line.speaker}
          status={line.speaker.trim() ? undefined : 'error'}
          placeholder="角色"
          onChange={(speaker: string) => onEdit({ speaker })}
        />
        <Flex vertical gap={4} style={{ flex: 1, minWidth: 200 }}>
          <Input.TextArea
            aria-label={`第 ${n} 行的台词`}
            autoSize={{ minRows: 1, maxRows: 4 }}
            value={line.text}
            status={!line.text.trim() || line.text.length > MAX_LINE_CHARS ? 'error' : undefined}
            placeholder={line.speaker === ANIME_NARRATOR ? '旁白的叙述' : `${line.speaker}的台词`}
            onChange={(event) => onEdit({ text: event.target.value })}
          />
          {flagged.length > 0 && (
            <Flex gap={4} wrap aria-label={`第 ${n} 行的违禁词`}>
              {flagged.map((item) => (
                <Tag key={item.word} color="error">
                  「{item.word}」建议改为「{item.replacement}」
                </Tag>
              ))}
            </Flex>
          )}
        </Flex>
        <Flex gap={4}>
          <Tooltip title="上移">
            <Button
              aria-label={`上移第 ${n} 行`}
              icon={<ArrowUpOutlined aria-hidden />}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            />
          </Tooltip>
          <Tooltip title="下移">
            <Button
              aria-label={`下移第 ${n} 行`}
              icon={<ArrowDownOutlined aria-hidden />}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            />
          </Tooltip>
          <Tooltip title="在下方添加一行">
            <Button
              aria-label={`在第 ${n} 行下方添加`}
              icon={<PlusOutlined aria-hidden />}
              onClick={onAddAfter}
            />
          </Tooltip>
          <ConfirmButton
            aria-label={`删除第 ${n} 行`}
            icon={<DeleteOutlined aria-hidden />}
            danger
            confirmTitle={`删除第 ${n} 行？`}
            confirmContent={`「${line.speaker}：${line.text.slice(0, 30)}」将从剧本中删除。`}
            okText="删除"
            okDanger
            onConfirm={onDelete}
          />
        </Flex>
      </Flex>
    </Card>
  );
}
