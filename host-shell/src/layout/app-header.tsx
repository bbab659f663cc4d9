import { Button, Flex, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { Suspense, useState, type ReactNode } from 'react';
import { Link } from '@kol/shared-sdk/router';
import { lazyPart, useOpenedOnce } from '../components/lazy-part';
import { platformConfigAtom } from '../lib/platform-config';
import { BetaBadge } from '../components/beta-badge';
import { DevOverrideBadge } from './dev-override-badge';
import { NoticesBell } from './notices-bell';
import { UserMenu } from './user-menu';

// Opened on a click: its Descriptions stay out of the first load.
const ContactModal = lazyPart(async () => (await import('./contact-modal')).ContactModal);

export function Logo() {
  return (
    <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Typography.Text strong style={{ fontSize: 18, color: '#eb2f96', whiteSpace: 'nowrap' }}>
        KOL Studio
      </Typography.Text>
      <BetaBadge />
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
  const { contact } = useAtomValue(platformConfigAtom);
  const [contactOpen, setContactOpen] = useState(false);
  const contactMounted = useOpenedOnce(contactOpen);
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        height: '100%',
      }}
    >
      <Flex align="center" gap="small">
        {leading}
        <Logo />
        <DevOverrideBadge />
      </Flex>
      <Flex align="center" gap={compact ? 'small' : 'middle'}>
        {contact.lines.length > 0 && (
          <Button type="text" onClick={() => setContactOpen(true)}>
            {contact.title || '联系我们'}
          </Button>
        )}
        <NoticesBell />
        <UserMenu compact={compact} />
      </Flex>
      {contactMounted && (
        <Suspense fallback={null}>
          <ContactModal open={contactOpen} onClose={() => setContactOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
