import { currentUserAtom, queryClient as sharedQueryClient } from '@kol/shared-sdk/state';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { KOL_THEME } from '@kol/shared-sdk/ui';
import { App as AntdApp, ConfigProvider, Watermark } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider, useAtomValue, type createStore } from 'jotai';
import type { ReactNode } from 'react';
import { BrowserRouter } from '@kol/shared-sdk/router';
import { MobileRedirect } from '../session/mobile-redirect';
import { PostingAccountModal } from '../session/posting-account-modal';
import { SessionGate } from '../session/session-gate';
import { AppRoutes } from './app-routes';
import { ScrollToTop } from './scroll-to-top';

/** The username drawn over the whole app, inside and outside the layout, once signed in. */
function UserWatermark({ children }: { children: ReactNode }) {
  const user = useAtomValue(currentUserAtom);
  if (!user) return <>{children}</>;
  return (
    <Watermark
      content={user.username}
      inherit
      font={{ color: 'rgba(255,255,255,0.08)' }}
      zIndex={1000}
      // antd's box is `overflow: hidden`, which makes it the scroll container of everything
      // sticky inside: the header scrolled away with the page. `clip` clips the same without
      // being one.
      style={{ overflow: 'clip' }}
    >
      <div data-testid="watermark" data-username={user.username}>
        {children}
      </div>
    </Watermark>
  );
}

/**
 * Providers every page and every remote shares: one theme, one store, one query cache, one
 * router. Tests give a query client of their own, so no test sees another's cache.
 */
export function App({
  store,
  queryClient = sharedQueryClient,
  children,
}: {
  store: ReturnType<typeof createStore>;
  queryClient?: QueryClient;
  children?: ReactNode;
}) {
  return (
    <ConfigProvider theme={KOL_THEME} locale={zhCN}>
      <AntdApp>
        <JotaiProvider store={store}>
          <QueryClientProvider client={queryClient}>
            <BrowserRouter>
              <ScrollToTop />
              <MobileRedirect />
              <SessionGate>
                <UserWatermark>
                  {children ?? <AppRoutes />}
                  <PostingAccountModal />
                </UserWatermark>
              </SessionGate>
            </BrowserRouter>
          </QueryClientProvider>
        </JotaiProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
