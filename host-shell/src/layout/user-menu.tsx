import { UserOutlined } from '@ant-design/icons';
import { signOut } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { App, Avatar, Dropdown, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useNavigate } from '@kol/shared-sdk/router';

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const user = useAtomValue(currentUserAtom);
  const navigate = useNavigate();
  const { message } = App.useApp();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'user', label: '个人中心' },
          { key: 'logout', label: '退出登录' },
        ],
        onClick: ({ key }) => {
          if (key === 'user') navigate('/user');
          else
            signOut().catch((error: unknown) =>
              message.error(error instanceof Error ? error.message : '退出失败'),
            );
        },
      }}
    >
      <Space style={{ cursor: 'pointer' }} data-testid="user-menu">
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
        {!compact && <Typography.Text>{user?.nickname || user?.username}</Typography.Text>}
      </Space>
    </Dropdown>
  );
}
