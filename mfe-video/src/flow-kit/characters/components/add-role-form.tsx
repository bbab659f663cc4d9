import { useState } from 'react';
import { Button, Card, Flex, Input, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSingleFlight } from '@kol/shared-sdk/ui';

interface AddRoleFormProps {
  onAdd: (name: string, description: string) => Promise<boolean>;
}

/** A role the extraction missed: a name and a fixed look. */
export function AddRoleForm({ onAdd }: AddRoleFormProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  // Once at a time: a double click adds one role.
  const { run: add, busy: adding } = useSingleFlight(async () => {
    const trimmed = name.trim();
    const found = !trimmed ? '请填写角色名' : trimmed.length > 32 ? '角色名不能超过 32 个字' : null;
    setProblem(found);
    if (found) return;
    if (await onAdd(trimmed, description)) {
      setName('');
      setDescription('');
    }
  });

  return (
    <Card size="small" title="添加角色">
      <Flex vertical gap={8}>
        <Input
          aria-label="新角色名"
          placeholder="角色名，须与文案中的称呼一致"
          maxLength={32}
          value={name}
          status={problem ? 'error' : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
        <Input.TextArea
          aria-label="新角色的外貌设定"
          placeholder="外貌设定（可稍后补充）"
          rows={2}
          maxLength={1000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <Button icon={<PlusOutlined aria-hidden />} loading={adding} onClick={() => void add()}>
          添加角色
        </Button>
      </Flex>
    </Card>
  );
}
