import { Layout } from 'antd';
import { useState } from 'react';
import { Outlet } from '@kol/shared-sdk/router';
import { PageSuspense } from '../components/lazy-part';
import { AppHeader } from './app-header';
import { SideMenu } from './side-menu';

/** The desktop frame: header, side menu, content. */
export function AppLayout() {
  // Below lg the menu folds away and antd shows its opener at the content's left edge: the
  // content moves aside for it (it sat over the page's first controls on a phone).
  const [folded, setFolded] = useState(false);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ paddingInline: 24, position: 'sticky', top: 0, zIndex: 10 }}>
        <AppHeader />
      </Layout.Header>
      <Layout>
        <Layout.Sider
          width={208}
          theme="dark"
          breakpoint="lg"
          collapsedWidth={0}
          onBreakpoint={setFolded}
          zeroWidthTriggerStyle={{ top: 12 }}
        >
          <SideMenu />
        </Layout.Sider>
        <Layout.Content style={{ padding: 24, paddingLeft: folded ? 56 : 24 }}>
          {/* A page whose code is still loading keeps the frame around its spinner. */}
          <PageSuspense>
            <Outlet />
          </PageSuspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
