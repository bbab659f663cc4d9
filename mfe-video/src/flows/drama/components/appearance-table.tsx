import { Table, Typography } from 'antd';
import type { OperaDraftScene } from '../draft';

interface AppearanceTableProps {
  speakers: readonly string[];
  scenes: readonly OperaDraftScene[];
}

/** Who appears in which scene: a row a character, a column a scene, the lines they say there. */
export function AppearanceTable({ speakers, scenes }: AppearanceTableProps) {
  const rows = speakers.map((name) => ({
    key: name,
    name,
    counts: scenes.map(
      (scene) => scene.lines.filter((line) => line.speaker.trim() === name).length,
    ),
  }));
  return (
    <Table
      aria-label="出场表"
      size="small"
      pagination={false}
      scroll={{ x: true }}
      dataSource={rows}
      columns={[
        { title: '角色', dataIndex: 'name', fixed: 'left' },
        ...scenes.map((scene, i) => ({
          key: scene.key,
          title: `场景 ${i + 1}`,
          align: 'center' as const,
          render: (_: unknown, row: (typeof rows)[number]) => {
            const count = row.counts[i] ?? 0;
            return count > 0 ? (
              <span aria-label={`${row.name} 在场景 ${i + 1} 有 ${count} 句`}>✓ {count} 句</span>
            ) : (
              <Typography.Text type="secondary" aria-label={`${row.name} 不在场景 ${i + 1}`}>
                —
              </Typography.Text>
            );
          },
        })),
      ]}
    />
  );
}
