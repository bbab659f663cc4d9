import { Alert, Button, Card, Flex, Input, Typography } from 'antd';
import { MAX_SCRIPT_CHARS } from '../convert-flow';
import type { ConvertDraft } from '../draft';

interface ScriptCardProps {
  draft: ConvertDraft;
  onScriptChange: (script: string) => void;
  /** Whether a chat model writes 改写文案 (null while the installation's services are read). */
  textModel: boolean | null;
  extracting: boolean;
  rewriting: boolean;
  /** 撤销改写 is offered: a rewrite replaced the script. */
  canUndo: boolean;
  onExtract: () => void;
  onRewrite: () => void;
  onUndo: () => void;
}

/** 文案: the script read from the clip, to edit, read again or rewrite. */
export function ScriptCard({
  draft,
  onScriptChange,
  textModel,
  extracting,
  rewriting,
  canUndo,
  onExtract,
  onRewrite,
  onUndo,
}: ScriptCardProps) {
  return (
    <Card
      size="small"
      title="文案"
      extra={
        <Flex gap={8}>
          <Button size="small" loading={extracting} onClick={onExtract}>
            重新提取
          </Button>
          <Button size="small" loading={rewriting} onClick={onRewrite}>
            改写文案
          </Button>
          {canUndo && (
            <Button size="small" onClick={onUndo}>
              撤销改写
            </Button>
          )}
        </Flex>
      }
    >
      <Flex vertical gap={8}>
        {textModel === false && (
          <Typography.Text type="secondary" data-testid="rewrite-engine-note">
            未配置文本模型：「改写文案」由本地引擎完成，只替换少量常用词语，句子和分行保持不变。
          </Typography.Text>
        )}
        {draft.extracted && (
          <Alert
            type={draft.extracted.from === 'none' ? 'warning' : 'info'}
            showIcon
            title={draft.extracted.note}
          />
        )}
        <Input.TextArea
          aria-label="反推文案"
          autoSize={{ minRows: 8, maxRows: 20 }}
          maxLength={MAX_SCRIPT_CHARS}
          showCount
          placeholder="新视频要配音的脚本，每句一行"
          value={draft.script}
          onChange={(event) => onScriptChange(event.target.value)}
        />
      </Flex>
    </Card>
  );
}
