import { useMediaQuery } from '@kol/shared-sdk/ui';
import { UserOutlined } from '@ant-design/icons';
import { signOut } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { App, Avatar, Dropdown, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useNavigate } from '@kol/shared-sdk/router';
import { inHeader } from './in-header';

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const user = useAtomValue(currentUserAtom);
  const navigate = useNavigate();
  const { message } = App.useApp();
  // Held here so that choosing an item closes it at once: the menu left open over /user while
  // the user centre's remote loaded.
  const [open, setOpen] = useState(false);
  // A phone-wide window leaves no room for the name: it wrapped into pieces beside the avatar.
  const narrow = useMediaQuery('(max-width: 575px)');
  return (
    <Dropdown
      trigger={['click']}
      getPopupContainer={inHeader}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items: [
          { key: 'user', label: '个人中心' },
          { key: 'logout', label: '退出登录' },
        ],
        onClick: ({ key }) => {
          setOpen(false);
          if (key === 'user') navigate('/user');
          else
            signOut().catch((error: unknown) =>
              message.error(error instanceof Error ? error.message : '退出失败'),
            );
        },
      }}
    >
      <Space align="center" style={{ cursor: 'pointer', lineHeight: 1.5 }} data-testid="user-menu">
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined aria-hidden />} />
        {!compact && !narrow && (
          <Typography.Text ellipsis style={{ maxWidth: 160, whiteSpace: 'nowrap' }}>
            {user?.nickname || user?.username}
          </Typography.Text>
        )}
      </Space>
    </Dropdown>
  );
}
