import { Button, Empty, Flex, Popconfirm, Tag, Typography } from 'antd';
import { MODE_LABELS } from '../../../lib/writing-modes';
import type { WritingVersion } from '../version-store';

interface VersionListProps {
  versions: WritingVersion[];
  onRestore: (version: WritingVersion) => void;
  onClear: () => void;
  /** Restoring while a run writes would be overwritten at once. */
  disabled?: boolean;
}

function timeOf(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Earlier texts of the desk, newest first; any one can come back into the editor. */
export function VersionList({ versions, onRestore, onClear, disabled = false }: VersionListProps) {
  if (versions.length === 0) {
    return <Empty description="每次生成完成后，这里会保留一个版本" />;
  }
  return (
    <Flex vertical gap={12} data-testid="version-list">
      {versions.map((version, index) => {
        const number = versions.length - index;
        return (
          <Flex
            key={version.id}
            justify="space-between"
            align="center"
            gap={8}
            data-testid={`version-${number}`}
          >
            <Flex vertical style={{ minWidth: 0 }}>
              <Flex gap={8} align="center" wrap>
                <Typography.Text strong>版本 {number}</Typography.Text>
                <Tag>{version.source === 'edit' ? '手动编辑' : MODE_LABELS[version.source]}</Tag>
                <Typography.Text type="secondary">{timeOf(version.createdAt)}</Typography.Text>
              </Flex>
              <Typography.Text type="secondary" ellipsis>
                {version.text.slice(0, 80)}
              </Typography.Text>
            </Flex>
            <Button
              autoInsertSpace={false}
              size="small"
              disabled={disabled}
              aria-label={`恢复版本 ${number}`}
              onClick={() => onRestore(version)}
            >
              恢复
            </Button>
          </Flex>
        );
      })}
      <Popconfirm title="清空全部版本？" okText="清空" cancelText="取消" onConfirm={onClear}>
        <Button size="small" danger data-testid="versions-clear" style={{ alignSelf: 'start' }}>
          清空版本
        </Button>
      </Popconfirm>
    </Flex>
  );
}
