import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import { demoUser, ok, renderWithHost } from '@kol/shared-sdk/testing';
import routes from '../../routes.json';
import App from '../app';
import { PAGES } from '../pages';
import { PHONE_PAGES } from '../lib/phone';
import { videoBackendPerTest } from '../testing/backend';
import { demoLimits } from '../testing/fixtures';

/** Routes the product adds beyond the spec's: the series (整季生成, issue 33). */
const PRODUCT_INSIDE = ['/video/series', '/video/series/:id'];

/** Every video route of spec section 2, inside the layout and outside it. */
const SPEC_INSIDE = [
  '/video',
  '/video/tool',
  '/video/configuration',
  '/video/config',
  '/video/operaConfig',
  '/video/caption',
  '/video/operaCaption',
  '/video/promptWord/:id',
  '/video/operaCharacter',
  '/video/operaScene',
  '/video/character',
  '/convertConfig',
  '/video/cutDuplicates/:id',
  '/video/cutDuplicates/config',
  '/video/decompression',
  '/video/scroll',
  '/video/animeInspiration',
  '/video/animeCaption',
  '/video/animeConfig',
  '/video/animeCharacter',
  '/video/animeStoryboard/:taskId',
  '/video/animeAtcs/:taskId',
];
/** `/video/cut` (the segment editor) is the works remote's: the one editor of a cut video. */
const SPEC_OUTSIDE = [
  '/video/short/:taskId',
  '/video/production',
  '/video/duplicatesEdit/:id',
  '/video/market/:segment?/:id?',
  '/tts',
];

/** An address that matches a claim's pattern. */
const addressOf = (path: string) =>
  path.replace(/\/:[a-zA-Z]+\?/g, '').replace(/:[a-zA-Z]+/g, '12');

const backend = videoBackendPerTest();

describe('App', () => {
  it('has a page for every path routes.json claims, and claims every page it has', () => {
    const claimed = routes.map((route) => route.path);
    expect([...PAGES.keys()].sort()).toEqual([...claimed].sort());
  });

  it('claims every video route of the spec, inside or outside the layout as the spec puts it', () => {
    const layoutOf = new Map(routes.map((route) => [route.path, route.layout]));
    for (const path of SPEC_INSIDE) expect([path, layoutOf.get(path)]).toEqual([path, 'inside']);
    for (const path of SPEC_OUTSIDE) expect([path, layoutOf.get(path)]).toEqual([path, 'outside']);
    for (const path of PRODUCT_INSIDE) expect([path, layoutOf.get(path)]).toEqual([path, 'inside']);
    expect(routes).toHaveLength(SPEC_INSIDE.length + SPEC_OUTSIDE.length + PRODUCT_INSIDE.length);
  });

  it('declares a phone variant for exactly the spec’s mobile pages', () => {
    const mobile = routes.filter((route) => 'mobile' in route && route.mobile).map((r) => r.path);
    expect(mobile.sort()).toEqual([...PHONE_PAGES].sort());
  });

  it.each(routes.map((route) => route.path))(
    'renders a page, never 页面不存在, for the claim %s',
    async (path) => {
      await backend.start({
        // A count of each type whose page is a form (else it shows its used-up notice).
        'GET /api/user/get_user_limit_info': () =>
          ok(
            demoLimits({
              remainGenCount: 3,
              remainOverseaGenCount: 2,
              remainScrollCount: 1,
              remainMarketCount: 1,
            }),
          ),
      });
      // A creator who may make every type: comic clips (1), anime shorts (2), decompression (3),
      // scrolling (4), reverse (5, with functional level 1) and marketing (6) videos.
      renderWithHost(<App routePath={path} />, {
        route: addressOf(path),
        path,
        user: demoUser({ templateIds: [0, 1, 2, 3, 4, 5, 6], functionalLevel: 1 }),
      });
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(screen.queryByText('页面不存在')).not.toBeInTheDocument();
      expect(screen.queryByText('模块暂不可用')).not.toBeInTheDocument();
    },
  );

  it.each(['/videos', '/video/unknown', 'constructor', ''])(
    'says 页面不存在 for the unknown path %j and leads home',
    (path) => {
      renderWithHost(<App routePath={path} />, { route: '/somewhere' });
      expect(screen.getByText('页面不存在')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: /返回首页/ }));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    },
  );
});
