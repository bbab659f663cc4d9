import { mediaUrl } from '@kol/shared-sdk';
import { useState } from 'react';
import { Alert, Button, Empty, Flex, Image, Modal, Spin, Typography } from 'antd';
import type { Role } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { useRoleLibrary } from '../api/use-role-library';

interface RoleLibraryModalProps {
  open: boolean;
  onClose: () => void;
  currentWorkId: number | null;
  /** Names already in this work's task (a second copy of a name is refused). */
  taken: readonly string[];
  onUse: (role: Role) => Promise<void>;
}

/**
 * 从角色库添加: a role of My roles or of an earlier work, copied in with its look, seed and
 * pictures.
 */
export function RoleLibraryModal({ open, onClose, ...list }: RoleLibraryModalProps) {
  return (
    <Modal title="从角色库添加" open={open} onCancel={onClose} footer={null} destroyOnHidden>
      {open && <RoleLibraryList {...list} />}
    </Modal>
  );
}

/** The library's roles; mounted while the dialog is open, so each opening reads it afresh. */
function RoleLibraryList({
  currentWorkId,
  taken,
  onUse,
}: Omit<RoleLibraryModalProps, 'open' | 'onClose'>) {
  const { roles, loading, error } = useRoleLibrary(currentWorkId);
  const [usingId, setUsingId] = useState<number | null>(null);

  // One copy at a time: a double click on 使用 adds the role once.
  const { run: use } = useSingleFlight(async (role: Role) => {
    setUsingId(role.roleId);
    try {
      await onUse(role);
    } finally {
      setUsingId(null);
    }
  });

  return loading ? (
    <Spin description="正在读取角色库" />
  ) : error ? (
    <Alert type="error" showIcon title={`角色库加载失败：${error}`} />
  ) : roles.length === 0 ? (
    <Empty description="角色库里还没有角色：我的角色和之前作品中的角色会出现在这里" />
  ) : (
    <Flex vertical gap={8} style={{ maxHeight: 420, overflowY: 'auto' }}>
      {roles.map(({ role, workTitle }) => (
        <Flex key={role.roleId} gap={8} align="center">
          {role.referenceImageUrl ? (
            <Image
              src={mediaUrl(role.referenceImageUrl)}
              alt={`${role.name} 参考图`}
              width={40}
              height={52}
              preview={false}
              style={{ objectFit: 'cover', borderRadius: 4 }}
            />
          ) : null}
          <Flex vertical style={{ flex: 1, minWidth: 0 }}>
            <Typography.Text strong>{role.name}</Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
              {workTitle === null ? '来自我的角色' : `来自《${workTitle}》`}
              {role.description ? ` · ${role.description}` : ''}
            </Typography.Text>
          </Flex>
          <Button
            size="small"
            aria-label={`加入角色 ${role.name}`}
            disabled={taken.includes(role.name)}
            loading={usingId === role.roleId}
            onClick={() => void use(role)}
          >
            {taken.includes(role.name) ? '已有同名角色' : '加入'}
          </Button>
        </Flex>
      ))}
    </Flex>
  );
}
