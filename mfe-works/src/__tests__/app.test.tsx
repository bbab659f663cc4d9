import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { QUOTA_FIELDS, type UsageLimits, type WorkResult } from '@kol/shared-sdk';
import routes from '../../routes.json';
import App from '../app';
import { WORK_LISTS } from '../lib/work-lists';
import { PAGES } from '../pages';
import { demoUser, fakeBackendPerTest, ok, refuse, renderWithHost } from '@kol/shared-sdk/testing';
import { demoWorkDetail } from '../testing/fixtures';

const backend = fakeBackendPerTest();

const CUT_WORK_ID = 12;

const limits = Object.fromEntries(
  Object.values(QUOTA_FIELDS)
    .flatMap((fields) => Object.values(fields))
    .filter((field) => field !== null)
    .map((field) => [field, 5]),
) as UsageLimits;

const cutResult: WorkResult = {
  workId: CUT_WORK_ID,
  taskId: `task-${CUT_WORK_ID}`,
  state: 'succeeded',
  stage: 'compose',
  progress: 100,
  etaSeconds: null,
  stages: [],
  videoUrl: `/media/works/${CUT_WORK_ID}/video.mp4`,
  srtUrl: '',
  coverUrl: '',
  durationMs: 12_000,
  error: null,
};

/**
 * The address each claim's page is opened at, its heading, and what it shows once its calls
 * are answered (an empty backend: the empty state), so no call is left in flight at the end.
 */
function expectationOf(path: string): { route: string; heading: string; loaded: string | null } {
  if (path === '/work') return { route: path, heading: '我的文案', loaded: 'work-empty' };
  if (path === '/work/character') {
    return { route: path, heading: '我的角色', loaded: 'role-empty' };
  }
  if (path === '/work/cut/:id') {
    // The heading shows once the work, its result and its (missing) cut data are in.
    return { route: `/work/cut/${CUT_WORK_ID}`, heading: '视频编辑 · 滚屏一号', loaded: null };
  }
  if (path === '/video/cut') {
    // The same editor, outside the layout, on the work named in the address.
    return {
      route: `/video/cut?workId=${CUT_WORK_ID}`,
      heading: '视频编辑 · 滚屏一号',
      loaded: 'outside-frame',
    };
  }
  const list = WORK_LISTS.find((entry) => entry.path === path);
  if (!list) throw new Error(`no expectation for the claim ${path}`);
  return { route: path, heading: list.title, loaded: 'works-empty' };
}

describe('App', () => {
  it('has a page for every path routes.json claims, and claims every page it has', () => {
    const claimed = routes.map((route) => route.path);
    expect(claimed.length).toBeGreaterThan(0);
    expect([...PAGES.keys()].sort()).toEqual([...claimed].sort());
  });

  it('gates each works page by the template id of its menu item (spec section 6)', () => {
    expect(routes.map(({ title: _title, ...claim }) => claim)).toEqual([
      { path: '/work', layout: 'inside', templateId: 0 },
      { path: '/work/comics', layout: 'inside', templateId: 1 },
      { path: '/work/anime', layout: 'inside', templateId: 2 },
      { path: '/work/decompression', layout: 'inside', templateId: 3 },
      { path: '/work/scroll', layout: 'inside', templateId: 4 },
      { path: '/work/convert', layout: 'inside', templateId: 5 },
      { path: '/work/market', layout: 'inside', templateId: 6 },
      // My roles is always shown; the editor is reached from a work the user may see.
      { path: '/work/character', layout: 'inside' },
      { path: '/work/cut/:id', layout: 'inside' },
      // The same editor as the spec's segment editor, outside the layout (spec section 2).
      { path: '/video/cut', layout: 'outside' },
    ]);
    // The works lists' own gates agree with the claims the host checks.
    for (const list of WORK_LISTS) {
      expect(routes.find((route) => route.path === list.path)?.templateId).toBe(list.templateId);
    }
  });

  it.each(routes.map((route) => route.path))('renders a page for the claim %s', async (path) => {
    await backend.start({
      'GET /api/video/get_works': () => ok({ items: [], total: 0 }),
      'GET /api/user/get_user_limit_info': () => ok(limits),
      'GET /api/library/roles': () => ok({ items: [], total: 0 }),
      'GET /api/video/work_info': () =>
        ok(demoWorkDetail(CUT_WORK_ID, { title: '滚屏一号', type: 2 })),
      'GET /api/video/get_work_result': () => ok(cutResult),
      'GET /api/cut_video/get_cut_video': () => refuse(400, '该视频类型没有剪辑数据', 400),
    });
    const { route, heading, loaded } = expectationOf(path);
    renderWithHost(<App routePath={path} />, {
      route,
      path,
      // Every template and a functional level, so no page stops at its gate.
      user: demoUser({ templateIds: [0, 1, 2, 3, 4, 5, 6], functionalLevel: 1 }),
    });
    expect(screen.queryByText('页面不存在')).not.toBeInTheDocument();
    expect(await screen.findByText(heading, { selector: 'h1' })).toBeInTheDocument();
    if (loaded) expect(await screen.findByTestId(loaded)).toBeInTheDocument();
    const list = WORK_LISTS.find((entry) => entry.path === path);
    if (list) {
      // A works list asks for its own (first) type.
      await waitFor(() =>
        expect(backend.current.calls('GET', '/api/video/get_works')[0]?.query.type).toBe(
          String(list.types[0]),
        ),
      );
    }
  });

  it.each(['/works', '/work/comic', 'constructor', ''])(
    'says 页面不存在 for the unknown path %j and leads home',
    (path) => {
      renderWithHost(<App routePath={path} />, { route: '/somewhere' });
      expect(screen.getByText('页面不存在')).toBeInTheDocument();
      fireEvent.click(screen.getByText(/返回首页|返\s*回\s*首\s*页/));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    },
  );
});
