import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import routes from '../../routes.json';
import App from '../app';
import { PAGES } from '../pages';
import { PLATFORMS } from '../testing/fixtures';
import { ok, startFakeBackend, type FakeBackend } from '../testing/fake-backend';
import { renderWithHost } from '@kol/shared-sdk/testing';

let backend: FakeBackend | undefined;

afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

const HEADINGS: Record<string, string> = { '/generate': '一键成文', '/create': '创意写作' };

describe('App', () => {
  it('has a page for every path routes.json claims, and claims every page it has', () => {
    const claimed = routes.map((route) => route.path);
    expect(claimed.length).toBeGreaterThan(0);
    expect([...PAGES.keys()].sort()).toEqual([...claimed].sort());
  });

  it.each(routes.map((route) => route.path))('renders a page for the claim %s', async (path) => {
    backend = await startFakeBackend({
      'GET /api/writing/get_platforms': () => ok(PLATFORMS),
    });
    renderWithHost(<App routePath={path} />, { route: path });
    expect(screen.queryByText('页面不存在')).not.toBeInTheDocument();
    expect(await screen.findByText(HEADINGS[path] ?? '?')).toBeInTheDocument();
  });

  it.each(['/generates', '/create/new', 'constructor', ''])(
    'says 页面不存在 for the unknown path %j and leads home',
    (path) => {
      renderWithHost(<App routePath={path} />, { route: '/somewhere' });
      expect(screen.getByText('页面不存在')).toBeInTheDocument();
      fireEvent.click(screen.getByText(/返\s*回\s*首\s*页/));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    },
  );
});
