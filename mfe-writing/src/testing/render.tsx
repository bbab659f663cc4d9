import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { Provider, createStore } from 'jotai';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { UserInfo } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { demoUser } from './fixtures';

type Store = ReturnType<typeof createStore>;

interface Options {
  /** The user the host put in `currentUserAtom`; null for a signed-out store. */
  user?: UserInfo | null;
  route?: string;
  store?: Store;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * Renders as the host does: its router, its jotai store (user filled first) and its antd
 * ConfigProvider (dark algorithm, pink primary, zh_CN) around antd's App (for `App.useApp()`).
 * A probe shows the current location.
 */
export function renderWithHost(ui: ReactElement, options: Options = {}) {
  const store = options.store ?? createStore();
  store.set(currentUserAtom, options.user === undefined ? demoUser() : options.user);
  const result = render(
    <ConfigProvider
      locale={zhCN}
      theme={{ algorithm: theme.darkAlgorithm, token: { colorPrimary: '#eb2f96' } }}
    >
      <AntdApp>
        <Provider store={store}>
          <MemoryRouter initialEntries={[options.route ?? '/']}>
            <Routes>
              <Route path="*" element={ui} />
            </Routes>
            <LocationProbe />
          </MemoryRouter>
        </Provider>
      </AntdApp>
    </ConfigProvider>,
  );
  return { ...result, store };
}
