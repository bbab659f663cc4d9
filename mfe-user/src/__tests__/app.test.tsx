import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import routes from '../../routes.json';
import App from '../app';
import { PAGES } from '../pages';
import { demoLimits } from '../testing/fixtures';
import { fakeBackendPerTest, ok, renderWithHost } from '@kol/shared-sdk/testing';

const backend = fakeBackendPerTest();

describe('App', () => {
  it('has a page for every path routes.json claims, and claims every page it has', () => {
    const claimed = routes.map((route) => route.path);
    expect(claimed.length).toBeGreaterThan(0);
    expect([...PAGES.keys()].sort()).toEqual([...claimed].sort());
  });

  it.each(routes.map((route) => route.path))('renders a page for the claim %s', async (path) => {
    await backend.start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits()),
    });
    renderWithHost(<App routePath={path} />, { route: path });
    expect(screen.queryByText('页面不存在')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: '个人中心' })).toBeInTheDocument();
  });

  it.each(['/users', '/user/settings', 'constructor', ''])(
    'says 页面不存在 for the unknown path %j and leads home',
    (path) => {
      renderWithHost(<App routePath={path} />, { route: '/somewhere' });
      expect(screen.getByText('页面不存在')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: /返回首页/ }));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    },
  );
});
