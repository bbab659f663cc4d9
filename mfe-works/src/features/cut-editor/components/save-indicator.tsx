import { Button, Flex, Typography } from 'antd';
import { CheckCircleOutlined, LoadingOutlined, WarningOutlined } from '@ant-design/icons';
import type { SaveStatus } from '../api/save-queue';

interface SaveIndicatorProps {
  status: SaveStatus;
  onRetry: () => void;
}

/** 已保存 / 保存中… / 保存失败（why）with 重试. */
export function SaveIndicator({ status, onRetry }: SaveIndicatorProps) {
  return (
    <Flex align="center" gap={8} data-testid="save-state" role="status" aria-live="polite">
      {status.state === 'saved' ? (
        <Typography.Text type="secondary">
          <CheckCircleOutlined aria-hidden /> 已保存
        </Typography.Text>
      ) : status.state === 'failed' ? (
        <>
          <Typography.Text type="danger">
            <WarningOutlined aria-hidden /> 保存失败（{status.message}）
          </Typography.Text>
          <Button size="small" onClick={onRetry}>
            重试
          </Button>
        </>
      ) : (
        <Typography.Text type="secondary">
          <LoadingOutlined aria-hidden /> 保存中…
        </Typography.Text>
      )}
    </Flex>
  );
}
