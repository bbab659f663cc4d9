import { useState } from 'react';
import { Button, Flex, Input, Segmented, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { RolesQuery } from '../api/use-roles-query';
import { ROLE_TYPES, parseRoleType } from '../role-types';

const ALL = 'all';
const FILTERS = [
  { value: ALL, label: '全部' },
  ...ROLE_TYPES.map((option) => ({ value: String(option.type), label: option.label })),
];

interface RolesToolbarProps {
  query: RolesQuery;
  onChange: (change: Partial<RolesQuery>) => void;
  onCreate: () => void;
}

/**
 * Title, 新建角色, the kind filter and the name search. The box starts from the address's
 * keyword (the page remounts it when that changes, e.g. with the back button).
 */
export function RolesToolbar({ query, onChange, onCreate }: RolesToolbarProps) {
  const [text, setText] = useState(query.keyword);

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
          我的角色
        </Typography.Title>
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={onCreate}
          data-testid="role-create"
        >
          新建角色
        </Button>
      </Flex>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Segmented
          aria-label="角色类型筛选"
          options={FILTERS}
          value={query.type === null ? ALL : String(query.type)}
          onChange={(value) => onChange({ type: parseRoleType(String(value)) })}
        />
        <Input.Search
          aria-label="搜索角色"
          data-testid="role-search"
          placeholder="按角色名搜索"
          allowClear
          enterButton="搜索"
          maxLength={32}
          style={{ maxWidth: 320 }}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            // Clearing the box lists every role of the kind again.
            if (event.target.value === '' && query.keyword) onChange({ keyword: '' });
          }}
          onSearch={(value) => onChange({ keyword: value })}
        />
      </Flex>
    </Flex>
  );
}
