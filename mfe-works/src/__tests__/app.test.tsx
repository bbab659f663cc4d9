import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import routes from '../../routes.json';
import App from '../app';
import { PAGES } from '../pages';
import { ok, startFakeBackend, type FakeBackend } from '@kol/shared-sdk/testing';
import { renderWithHost } from '../testing/render';

let backend: FakeBackend | undefined;

afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

describe('App', () => {
  it('has a page for every path routes.json claims, and claims every page it has', () => {
    const claimed = routes.map((route) => route.path);
    expect(claimed.length).toBeGreaterThan(0);
    expect([...PAGES.keys()].sort()).toEqual([...claimed].sort());
  });

  it('gates /work by template id 0 (comics), as the spec says', () => {
    expect(routes).toEqual([{ path: '/work', layout: 'inside', templateId: 0 }]);
  });

  it.each(routes.map((route) => route.path))('renders a page for the claim %s', async (path) => {
    backend = await startFakeBackend({
      'GET /api/video/get_works': () => ok({ items: [], total: 0 }),
    });
    renderWithHost(<App routePath={path} />, { route: path });
    expect(screen.queryByText('页面不存在')).not.toBeInTheDocument();
    expect(await screen.findByText('我的文案')).toBeInTheDocument();
  });

  it.each(['/works', '/work/comics', 'constructor', ''])(
    'says 页面不存在 for the unknown path %j and leads home',
    (path) => {
      renderWithHost(<App routePath={path} />, { route: '/somewhere' });
      expect(screen.getByText('页面不存在')).toBeInTheDocument();
      fireEvent.click(screen.getByText(/返回首页|返\s*回\s*首\s*页/));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    },
  );
});
