import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout } from 'antd';
import { useState } from 'react';
import { Outlet } from '@kol/shared-sdk/router';
import { PageSuspense } from '../components/lazy-part';
import { AppHeader } from './app-header';
import { SideMenu } from './side-menu';

/** The phone frame for /m pages: a compact header, the menu in a drawer. */
export function MobileLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="mobile-layout">
      <Layout.Header style={{ paddingInline: 12, position: 'sticky', top: 0, zIndex: 10 }}>
        <AppHeader
          compact
          leading={
            <Button
              type="text"
              aria-label="菜单"
              icon={<MenuOutlined aria-hidden />}
              onClick={() => setMenuOpen(true)}
            />
          }
        />
      </Layout.Header>
      <Layout.Content style={{ padding: 12 }}>
        {/* A page whose code is still loading keeps the frame around its spinner. */}
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </Layout.Content>
      <Drawer
        placement="left"
        // The drawer is a dialog with no title bar: its name says what it holds.
        aria-label="菜单"
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        width={260}
        styles={{ body: { padding: 0 } }}
      >
        <SideMenu onNavigate={() => setMenuOpen(false)} />
      </Drawer>
    </Layout>
  );
}
