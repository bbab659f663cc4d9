import type { ReactNode } from 'react';
import { Alert, Button, Flex, Input, Tag, Typography } from 'antd';
import { RedoOutlined, StopOutlined } from '@ant-design/icons';
import type { GenerationStatus } from '../hooks/use-generation';

const STATUS_TEXT: Record<GenerationStatus, string> = {
  idle: '',
  starting: '正在提交…',
  running: '生成中…',
  succeeded: '已完成',
  failed: '生成失败',
  cancelled: '已停止',
};

const STATUS_COLOR: Record<GenerationStatus, string> = {
  idle: 'default',
  starting: 'processing',
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'warning',
};

interface ResultPanelProps {
  /** The text shown: the stream while it runs, else the editable result. */
  text: string;
  onTextChange: (text: string) => void;
  status: GenerationStatus;
  engine: string;
  error: string | null;
  onStop: () => void;
  onRegenerate: () => void;
  placeholder: string;
  /** The accessible name of the text area. */
  label?: string;
  /** The actions on the finished text (copy, save, send). */
  actions: ReactNode;
}

/** The output of a writing page: status, engine, the text (editable once it ended), stop and regenerate. */
export function ResultPanel({
  text,
  onTextChange,
  status,
  engine,
  error,
  onStop,
  onRegenerate,
  placeholder,
  label = '生成结果',
  actions,
}: ResultPanelProps) {
  const running = status === 'starting' || status === 'running';
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} align="center" wrap style={{ minHeight: 24 }}>
        {status !== 'idle' && (
          <Tag color={STATUS_COLOR[status]} data-testid="generation-status">
            {STATUS_TEXT[status]}
          </Tag>
        )}
        {engine && (
          <Typography.Text type="secondary" data-testid="engine">
            由 {engine} 生成
          </Typography.Text>
        )}
      </Flex>
      {status === 'failed' && error && (
        <Alert
          type="error"
          showIcon
          title={error}
          data-testid="generation-error"
          action={
            <Button size="small" onClick={onRegenerate}>
              重试
            </Button>
          }
        />
      )}
      <Input.TextArea
        aria-label={label}
        data-testid="result-text"
        value={text}
        readOnly={running}
        placeholder={placeholder}
        autoSize={{ minRows: 12, maxRows: 30 }}
        onChange={(event) => onTextChange(event.target.value)}
      />
      <Flex gap={8} wrap align="center">
        {running ? (
          <Button danger icon={<StopOutlined aria-hidden />} onClick={onStop} data-testid="stop">
            停止
          </Button>
        ) : (
          <Button
            icon={<RedoOutlined aria-hidden />}
            onClick={onRegenerate}
            disabled={status === 'idle'}
            data-testid="regenerate"
          >
            重新生成
          </Button>
        )}
        {actions}
      </Flex>
    </Flex>
  );
}
