import { App, Button, ConfigProvider, Result, theme, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactElement } from 'react';
import { useNavigate } from '@kol/shared-sdk/router';
import kolTheme from './kol-theme.json';

export { useSingleFlight } from './single-flight';

/**
 * What the host and every remote render alike (antd and react-router are optional peers of
 * this entry only). Remotes render inside the host's router and jotai store and create none;
 * antd is each app's own (tree-shaken, not shared: webpack.preset.cjs), so each remote gives its
 * pages the one theme, locale and App context (messages, modals) itself, in `createRemoteApp`.
 */

/**
 * Dark theme, pink primary (spec section 1): the host's ConfigProvider and tests use this one.
 * Its values live in `kol-theme.json`, which the builds also read to write the antd styles of a
 * first load ahead of time (scripts/antd-styles.cjs).
 */
export const KOL_THEME: ThemeConfig = {
  algorithm: kolTheme.dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
  token: kolTheme.token,
};

export function RemotePageNotFound() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="你访问的页面不存在或已被移除。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}

/** A remote's exposed `./App`: the page of the route claim (from `routes.json`) the host matched. */
export interface RemoteAppProps {
  routePath: string;
}

/**
 * Makes a remote's `./App` from its pages, keyed by claim path (a Map, so `constructor` is no
 * page), in the remote's own antd ConfigProvider with the one theme and locale. `App` with no
 * element of its own gives `App.useApp()` its message, modal and notification holders.
 */
export function createRemoteApp(pages: ReadonlyMap<string, ReactElement>) {
  return function RemoteApp({ routePath }: RemoteAppProps) {
    return (
      <ConfigProvider theme={KOL_THEME} locale={zhCN}>
        <App component={false}>{pages.get(routePath) ?? <RemotePageNotFound />}</App>
      </ConfigProvider>
    );
  };
}
