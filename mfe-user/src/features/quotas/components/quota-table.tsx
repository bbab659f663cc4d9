import { useEffect } from 'react';
import { Button, Flex, Table, message, type TableColumnsType } from 'antd';
import { useUsageLimits } from '@kol/shared-sdk/state';
import { quotaRows, type QuotaRow } from '../quota-rows';

const NONE = '—';

const columns: TableColumnsType<QuotaRow> = [
  { title: '类型', dataIndex: 'label', key: 'label' },
  { title: '剩余次数', dataIndex: 'remaining', key: 'remaining', align: 'right' },
  {
    title: '奖励次数',
    dataIndex: 'reward',
    key: 'reward',
    align: 'right',
    render: (value: number | null) => value ?? NONE,
  },
  {
    title: '合成次数',
    dataIndex: 'merge',
    key: 'merge',
    align: 'right',
    render: (value: number | null) => value ?? NONE,
  },
];

/** Remaining, reward and merge counts of every quota type, from `get_user_limit_info`. */
export function QuotaTable() {
  const { limits, loading, error, reload } = useUsageLimits();
  const [messageApi, messageHolder] = message.useMessage();

  useEffect(() => {
    if (error) void messageApi.error(error);
  }, [error, messageApi]);

  return (
    <Flex vertical gap={12}>
      {messageHolder}
      <Table<QuotaRow>
        rowKey="type"
        size="small"
        columns={columns}
        dataSource={limits ? quotaRows(limits) : []}
        loading={loading}
        pagination={false}
        locale={error ? { emptyText: '次数加载失败' } : undefined}
      />
      {error && (
        <Button onClick={reload} style={{ alignSelf: 'flex-start' }}>
          重新加载
        </Button>
      )}
    </Flex>
  );
}
