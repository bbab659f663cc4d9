import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { standStill } from '../support/audit';
import {
  DESKTOP,
  PHONE,
  createUser,
  kol,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  uniqueUsername,
} from '../support/platform';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the shell in a real browser', () => {
  it('signs in as the demo user and shows the frame, the watermark and the home page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'demo', 'demo123456');
    await page.getByTestId('home-page').waitFor();
    expect(await page.getByText('Beta', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('watermark').getAttribute('data-username')).toBe('demo');
    // antd draws the watermark as a repeated background image over the content.
    const marked = await page.evaluate(() =>
      [
        ...document.querySelectorAll(
          '[data-testid="watermark"] ~ div, [data-testid="watermark"] div',
        ),
      ].some((el) => getComputedStyle(el).backgroundImage.startsWith('url("data:image')),
    );
    expect(marked).toBe(true);
    await context.close();
  });

  it('keeps the header on the screen while a long page scrolls', async () => {
    const { username, password } = await createUser({ templateIds: '0,1,2,3,4,5,6' });
    // A comics count, or the configuration page sends the browser back (spec section 4).
    await kol('quota', 'grant', username, '--type', 'comics', '--gen', '1');
    // A short window, so the page is much taller than it whatever the fonts.
    const { context, page } = await newPage(browser, { width: DESKTOP.width, height: 500 });
    await signIn(page, username, password);
    await page.goto('/video/config');
    await page.getByRole('button', { name: '下一步：分镜字幕' }).waitFor();
    const scrolled = await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return window.scrollY;
    });
    // The page is taller than the window, and the header stays at its top.
    expect(scrolled).toBeGreaterThan(300);
    const top = await page
      .locator('header')
      .first()
      .evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBe(0);
    await context.close();
  });

  it('shows the posting-account prompt 20 ms after a page, not on /user, and stops once it is filled in', async () => {
    const { username, password } = await createUser({ templateIds: '0', homePageUrl: false });
    const { context, page } = await newPage(browser);
    await page.addInitScript(() => {
      const times: Record<string, number> = {};
      (window as unknown as { kolTimes: typeof times }).kolTimes = times;
      new MutationObserver(() => {
        if (!times.page && document.querySelector('[data-testid="home-page"]'))
          times.page = performance.now();
        if (
          !times.prompt &&
          [...document.querySelectorAll('.ant-modal-title')].some(
            (el) => el.textContent === '友情提示',
          )
        ) {
          times.prompt = performance.now();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await signIn(page, username, password);
    const prompt = page.locator('.ant-modal').filter({ hasText: '友情提示' });
    await prompt.waitFor();
    const times = await page.evaluate(
      () => (window as unknown as { kolTimes: Record<string, number> }).kolTimes,
    );
    expect((times.prompt ?? 0) - (times.page ?? Infinity)).toBeGreaterThanOrEqual(19);
    await page.keyboard.press('Escape');
    expect(await prompt.isVisible()).toBe(true);

    await prompt.getByRole('button', { name: /去\s*填\s*写/ }).click();
    await page.waitForURL('**/user');
    // The prompt closes (after antd's closing animation) and does not come back on /user.
    await prompt.waitFor({ state: 'hidden' });
    await page.waitForTimeout(200);
    expect(await prompt.isVisible()).toBe(false);

    await page.getByLabel('发布账号主页').fill(`https://example.com/${username}`);
    await page.getByRole('button', { name: /保存发布账号/ }).click();
    await page
      .getByText(/已保存/)
      .first()
      .waitFor();
    await page.goto('/');
    await page.getByTestId('home-page').waitFor();
    await page.waitForTimeout(200);
    expect(await page.locator('.ant-modal').filter({ hasText: '友情提示' }).count()).toBe(0);
    await context.close();
  });

  it('opens each header item: contact us, notices, the user menu', async () => {
    const { username, password } = await createUser({ templateIds: '0,1,2,3,4,5,6' });
    await kol(
      'notice',
      'publish',
      '--title',
      'E2E 通知',
      '--content',
      '端到端测试发布的通知',
      '--category',
      '系统公告',
    );
    const { context, page } = await newPage(browser);
    await signIn(page, username, password);
    await page.getByText('联系我们').click();
    await page.locator('.ant-modal').filter({ hasText: '联系我们' }).waitFor();
    await page.keyboard.press('Escape');

    const bell = page.getByRole('button', { name: /^通知/ });
    await bell.click();
    const panel = page.getByTestId('notices-panel');
    await panel.getByText('E2E 通知').waitFor();
    await panel.getByRole('button', { name: '全部已读' }).click();
    await page.waitForFunction(
      () => !document.querySelector('button[aria-label^="通知"] .ant-badge-count'),
    );
    await page.keyboard.press('Escape');

    await page.getByTestId('user-menu').click();
    await page.getByText('个人中心').click();
    await page.waitForURL('**/user');
    await page.getByText(username).first().waitFor();
    await context.close();
  });

  it('gates the work menu by template ids (a user made with the ops CLI)', async () => {
    // Made with the CLI itself (createUser calls its endpoints directly), posting account too.
    const username = uniqueUsername('e2e');
    const password = 'e2e-password-1';
    await kol(
      'user',
      'create',
      '--username',
      username,
      '--password',
      password,
      '--template-ids',
      '0,4',
      '--functional-level',
      '1',
    );
    await kol('user', 'set', username, '--home-page-url', `https://example.com/${username}`);
    const { context, page } = await newPage(browser);
    await signIn(page, username, password);
    const menu = page.getByTestId('side-menu');
    await menu.waitFor();
    for (const shown of ['我的角色', '我的文案', '滚屏视频'])
      expect(await menu.getByText(shown).isVisible()).toBe(true);
    for (const hidden of ['漫剪视频', 'AI漫剧', '解压视频', '反推视频', '营销视频']) {
      expect(await menu.getByText(hidden).count()).toBe(0);
    }
    await page.goto('/work/comics');
    await page.getByText('抱歉，您没有权限访问该页面。').waitFor();
    await context.close();
  });

  it('goes back from /work/convert at functional level 0', async () => {
    const { username, password } = await createUser({ templateIds: '0,5', functionalLevel: 0 });
    const { context, page } = await newPage(browser);
    await signIn(page, username, password);
    await page.getByTestId('home-page').waitFor();
    await page.getByTestId('side-menu').getByText('反推视频').click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('sends a 401 in the middle of a session to /login', async () => {
    const { username, password } = await createUser({ templateIds: '0' });
    const { context, page } = await newPage(browser);
    await signIn(page, username, password);
    await page.getByTestId('home-page').waitFor();
    await context.clearCookies();
    // The next call meets the 401: the bell's, or one of the home page's still under way (then
    // the bell is gone already, and the browser is on its way to /login either way).
    await page
      .getByRole('button', { name: /^通知/ })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForURL('**/login');
    await context.close();
  });

  it('redirects between the phone and desktop paths both ways, keeping the query', async () => {
    const { username, password } = await createUser({ templateIds: '0' });
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, username, password);
    await phone.page.goto('/?from=share');
    await phone.page.waitForURL((url) => url.pathname === '/m' && url.search === '?from=share');
    await phone.page.getByTestId('mobile-layout').waitFor();
    await phone.page.goto('/m/user?tab=1');
    await phone.page.waitForURL((url) => url.pathname === '/user' && url.search === '?tab=1');
    await phone.context.close();

    const desktop = await newPage(browser, DESKTOP);
    await signIn(desktop.page, username, password);
    await desktop.page.goto('/m/video?x=1');
    await desktop.page.waitForURL((url) => url.pathname === '/video' && url.search === '?x=1');
    await desktop.context.close();
  });

  it('shows the error page for a remote whose server is down while the shell and other pages work', async () => {
    const { username, password } = await createUser({ templateIds: '0' });
    const { context, page } = await newPage(browser);
    await signIn(page, username, password);
    await page.route('**/remotes/mfe_user/**', (route) => route.abort('connectionrefused'));
    await page.goto('/user');
    await page.getByText('页面加载失败').waitFor();
    expect(await page.getByRole('button', { name: /重\s*试/ }).isVisible()).toBe(true);
    await page.getByTestId('side-menu').getByText('首页').click();
    await page.getByTestId('home-page').waitFor();
    await page.unroute('**/remotes/mfe_user/**');
    await page.goto('/user');
    await page.getByText(username).first().waitFor();
    await context.close();
  });

  it('fetches a remote’s page code when its menu item is hovered, before the click', async () => {
    const user = await createUser({ templateIds: '0' });
    const { context, page } = await newPage(browser);
    await signIn(page, user.username, user.password);
    await page.getByTestId('home-page').waitFor();
    const fetched: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/remotes/mfe_writing/')) fetched.push(pathname);
    });
    // Nothing of the writing remote on the home page.
    await page.waitForTimeout(300);
    expect(fetched).toEqual([]);

    const item = page.getByTestId('side-menu').getByText('一键成文', { exact: true });
    const pageCode = page.waitForRequest((request) =>
      /\/remotes\/mfe_writing\/[^/]+\/__federation_expose_App\.[0-9a-f]+\.js$/.test(request.url()),
    );
    const styles = page.waitForResponse((response) =>
      /\/remotes\/mfe_writing\/[^/]+\/antd-styles\.css$/.test(response.url()),
    );
    await item.hover();
    await pageCode;
    // Entry, manifest and the page's own chunk, all before any click.
    expect(
      fetched.some(
        (file) => file.endsWith('/remoteEntry.js') || file.endsWith('/mf-manifest.json'),
      ),
    ).toBe(true);
    // Its antd styles too, written by its build (scripts/antd-styles.cjs).
    await styles;
    await item.click();
    await page.waitForURL('**/generate');
    await page.getByRole('heading', { name: '一键成文' }).first().waitFor();
    // The page's Select and Segmented take their rules from that file: antd computed none of
    // them in the page, and they apply (the segmented control's selected item is drawn).
    const computed = await page.evaluate(() =>
      [...document.querySelectorAll('style')]
        .map((style) => style.textContent ?? '')
        .filter((text) => /\.ant-(select|segmented)-(selector|item-selected)/.test(text)),
    );
    expect(computed).toEqual([]);
    const selected = page.locator('.ant-segmented-item-selected').first();
    expect(await selected.evaluate((element) => getComputedStyle(element).borderRadius)).not.toBe(
      '0px',
    );
    await context.close();
  });

  it('fetches the menu’s remotes once the first page has settled, with no hover', async () => {
    const user = await createUser({ templateIds: '0' });
    const { context, page } = await newPage(browser);
    await signIn(page, user.username, user.password);
    await page.getByTestId('home-page').waitFor();
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    // The host waits five seconds after the first page, then one remote per idle period.
    const pageCode = (remote: string) =>
      page.waitForRequest(
        (request) =>
          new RegExp(`/remotes/${remote}/[^/]+/__federation_expose_App\\.[0-9a-f]+\\.js$`).test(
            request.url(),
          ),
        { timeout: 30_000 },
      );
    await Promise.all([pageCode('mfe_writing'), pageCode('mfe_video'), pageCode('mfe_works')]);
    // The writing remote (first in the menu) came first.
    const firstRemote = fetched.find((file) => file.startsWith('/remotes/'));
    expect(firstRemote?.startsWith('/remotes/mfe_writing/')).toBe(true);

    const before = fetched.length;
    await page.getByTestId('side-menu').getByText('一键成文', { exact: true }).click();
    await page.getByRole('heading', { name: '一键成文' }).first().waitFor();
    // Its page code was already here: the click fetched none of it again.
    expect(fetched.slice(before).filter((file) => /__federation_expose_App/.test(file))).toEqual(
      [],
    );
    await context.close();
  });

  it('keeps screenshots of the home page at desktop and phone widths', async () => {
    for (const [name, viewport] of [
      ['home-desktop', DESKTOP],
      ['home-phone', PHONE],
    ] as const) {
      const { context, page } = await newPage(browser, viewport);
      await signIn(page, 'demo', 'demo123456');
      await page.getByTestId('home-page').waitFor();
      // Its cards faded in before the picture is taken.
      await standStill(page);
      await screenshot(page, name);
      await context.close();
    }
  });
});
