import { act, render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { Provider, createStore } from 'jotai';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from '@kol/shared-sdk/router';
import type { UserInfo } from '../contracts/user';
import { createQueryClient, currentUserAtom } from '../state';
import { KOL_THEME } from '../ui';
import { DetachedStyles } from './detached-styles';
import { demoUser } from './fixtures';

type Store = ReturnType<typeof createStore>;

export interface RenderWithHostOptions {
  /**
   * The user the host put in `currentUserAtom`: the demo user (`demoUser()`) when left out, as
   * the host lets a remote's page show only to a signed-in user; null for a signed-out store.
   */
  user?: UserInfo | null;
  route?: string;
  store?: Store;
  /**
   * The route claim's path pattern (`/video/cutDuplicates/:id`), for a page that reads its
   * `:params`: the page then renders only where the host's route would match, at `path` and at
   * its phone variant `/m${path}` (the host serves narrow screens there), and nothing elsewhere,
   * so a test sees the page leave when it navigates away.
   */
  path?: string;
  /** The query cache; a fresh one per render when left out, so no test sees another's data. */
  queryClient?: QueryClient;
}

/** Shows the current location, so tests can check where a page navigated. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * Renders a remote's page as the host does: its router, its jotai store (user filled first) and
 * its antd ConfigProvider (the one theme, zh_CN) around antd's App (for `App.useApp()`); antd's
 * CSS kept out of the document (see DetachedStyles).
 */
export function renderWithHost(ui: ReactElement, options: RenderWithHostOptions = {}) {
  const { path } = options;
  const page = path ? (
    <Routes>
      <Route path={path} element={ui} />
      <Route path={`/m${path}`} element={ui} />
      <Route path="*" element={null} />
    </Routes>
  ) : (
    ui
  );
  const store = options.store ?? createStore();
  store.set(currentUserAtom, options.user === undefined ? demoUser() : options.user);
  const queryClient = options.queryClient ?? createQueryClient();
  const result = render(
    <DetachedStyles>
      <ConfigProvider locale={zhCN} theme={KOL_THEME}>
        <AntdApp>
          <Provider store={store}>
            <QueryClientProvider client={queryClient}>
              <MemoryRouter initialEntries={[options.route ?? '/']}>
                <Routes>
                  <Route path="*" element={page} />
                </Routes>
                <LocationProbe />
              </MemoryRouter>
            </QueryClientProvider>
          </Provider>
        </AntdApp>
      </ConfigProvider>
    </DetachedStyles>,
  );
  return { ...result, store, queryClient };
}

/**
 * Waits while React keeps rendering (antd's motion and message timers), inside act, so a test
 * can then check that nothing was sent.
 */
export function settle(ms = 100): Promise<void> {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}
