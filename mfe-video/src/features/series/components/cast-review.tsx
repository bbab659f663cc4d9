import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Col, Empty, Flex, Row, Select, Skeleton, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRoles, updateRole, type Role, errorMessage } from '@kol/shared-sdk';
import { useRoleActions } from '../../../flow-kit/characters/api/use-role-actions';
import { AddRoleForm } from '../../../flow-kit/characters/components/add-role-form';
import { RoleCard } from '../../../flow-kit/characters/components/role-card';

interface CastReviewProps {
  castTaskId: string;
  castEngine: string;
}

const castKey = (taskId: string) => ['series-cast', taskId] as const;

/**
 * The series' cast, read once across the chosen chapters: fix a name, set a look and a gender
 * (its default voice), draw a portrait, add one the reading missed, and merge a duplicate into
 * the role it repeats. Every episode is drawn with these roles, so a person looks the same in
 * episode 1 and episode 12. The roles live on the server (the series' role task).
 */
export function CastReview({ castTaskId, castEngine }: CastReviewProps) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: castKey(castTaskId),
    queryFn: ({ signal }) => getRoles({ taskId: castTaskId }, { signal }),
  });
  const roles = useMemo(() => query.data ?? [], [query.data]);
  const setRoles = (next: Role[]) => client.setQueryData(castKey(castTaskId), next);
  // Portraits drawn here land on the role on the server too: nothing to keep in the session.
  const images = useRef<Record<string, string[]>>({});
  const store = useMemo(
    () => ({
      roleImages: () => images.current,
      setRoleImages: (next: Record<string, string[]>) => {
        images.current = next;
      },
    }),
    [],
  );
  const actions = useRoleActions({
    taskId: castTaskId,
    roles,
    setRoles,
    refresh: async () => {
      await query.refetch();
    },
    store,
  });

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        角色提取方式：{castEngine || '本地角色提取'}
        。角色名须与正文中的称呼一致；开始生成时这些角色会存入我的角色，每一集都用同一套角色。
      </Typography.Paragraph>
      {query.error && (
        <Alert type="error" showIcon title={`角色加载失败：${errorMessage(query.error)}`} />
      )}
      {query.isLoading ? (
        <Skeleton active />
      ) : (
        <Row gutter={[12, 12]}>
          {roles.length === 0 && (
            <Col xs={24}>
              <Empty description="正文里没有读出有名字的角色：可以手动添加" />
            </Col>
          )}
          {roles.map((role) => (
            <Col key={role.roleId} xs={24} md={12} xl={8}>
              <RoleCard
                role={role}
                pictures={actions.picturesOf(role)}
                drawing={actions.drawing[String(role.roleId)]}
                onSave={(edit) => actions.save(role.roleId, edit)}
                onDraw={(prompt) => void actions.draw(role.roleId, prompt)}
                onDelete={() => actions.remove(role.roleId)}
              />
            </Col>
          ))}
          <Col xs={24} md={12} xl={8}>
            <AddRoleForm onAdd={actions.add} />
          </Col>
        </Row>
      )}
      {roles.length > 1 && (
        <MergeRoles
          roles={roles}
          onMerge={async (keep, drop) => {
            // The kept role takes the duplicate's look when it has none of its own.
            if (!keep.description.trim() && drop.description.trim()) {
              await updateRole({
                roleId: keep.roleId,
                revision: keep.revision,
                description: drop.description,
              });
            }
            await actions.remove(drop.roleId);
            await query.refetch();
          }}
        />
      )}
    </Flex>
  );
}

function MergeRoles({
  roles,
  onMerge,
}: {
  roles: Role[];
  onMerge: (keep: Role, drop: Role) => Promise<void>;
}) {
  const [drop, setDrop] = useState<number | null>(null);
  const [keep, setKeep] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const options = roles.map((role) => ({ value: role.roleId, label: role.name }));
  const kept = roles.find((role) => role.roleId === keep);
  const dropped = roles.find((role) => role.roleId === drop);
  return (
    <Flex gap={8} align="center" wrap>
      <Typography.Text>合并重复角色：把</Typography.Text>
      <Select
        aria-label="重复的角色"
        style={{ minWidth: 140 }}
        placeholder="重复的角色"
        value={drop ?? undefined}
        onChange={(value: number) => setDrop(value)}
        options={options.filter((option) => option.value !== keep)}
      />
      <Typography.Text>并入</Typography.Text>
      <Select
        aria-label="保留的角色"
        style={{ minWidth: 140 }}
        placeholder="保留的角色"
        value={keep ?? undefined}
        onChange={(value: number) => setKeep(value)}
        options={options.filter((option) => option.value !== drop)}
      />
      <Button
        disabled={!kept || !dropped}
        loading={busy}
        onClick={() => {
          if (!kept || !dropped) return;
          setBusy(true);
          void onMerge(kept, dropped).finally(() => {
            setBusy(false);
            setDrop(null);
            setKeep(null);
          });
        }}
      >
        合并
      </Button>
    </Flex>
  );
}
