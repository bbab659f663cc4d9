import { Button, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ContactModal } from './contact-modal';
import { NoticesBell } from './notices-bell';
import { UserMenu } from './user-menu';

export function Logo() {
  return (
    <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Typography.Text strong style={{ fontSize: 18, color: '#eb2f96' }}>
        KOL Studio
      </Typography.Text>
      <Tag color="magenta" style={{ marginInlineEnd: 0 }}>
        Beta
      </Tag>
    </Link>
  );
}

export function AppHeader({
  compact = false,
  leading,
}: {
  compact?: boolean;
  leading?: ReactNode;
}) {
  const [contactOpen, setContactOpen] = useState(false);
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        height: '100%',
      }}
    >
      <Space>
        {leading}
        <Logo />
      </Space>
      <Space size={compact ? 'small' : 'middle'}>
        <Button type="text" onClick={() => setContactOpen(true)}>
          联系我们
        </Button>
        <NoticesBell />
        <UserMenu compact={compact} />
      </Space>
      <ContactModal open={contactOpen} onClose={() => setContactOpen(false)} />
    </div>
  );
}
