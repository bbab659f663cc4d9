import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  PHONE_VIEWPORT,
  axeViolations,
  followRequests,
  offPaletteColours,
  phoneFit,
  settle,
  standStill,
  type AxeViolation,
  type OffPalette,
} from '../support/audit';
import {
  api,
  createUser,
  grantQuota,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { RENDER_LIMIT_MS, until } from '../support/waits';

/**
 * The interface audit (issue 32): every route of spec section 2 a creator reaches without a
 * work of their own, the comic clip's routes on a work of theirs (its steps, progress, video page
 * and editor) and the dialogs a creator opens (DIALOGS), at desktop width (1440x900) and phone width (375x812), with the
 * accessibility engine (axe-core, every rule it runs by default), the colours against the
 * theme's palette, and at phone width the page's width and the header. A picture of each is
 * kept in e2e/artifacts/interface-<width>-<route>.png.
 */
const ROUTES = [
  '/',
  '/home',
  '/login',
  '/close',
  // A page nobody claims: the layout's 页面不存在.
  '/no-such-page',
  '/generate',
  '/create',
  '/work',
  '/work/comics',
  '/work/anime',
  '/work/decompression',
  '/work/scroll',
  '/work/convert',
  '/work/market',
  '/work/character',
  '/video',
  '/video/tool',
  '/video/config',
  '/video/configuration',
  '/video/operaConfig',
  '/video/decompression',
  '/video/scroll',
  '/video/animeInspiration',
  '/video/cutDuplicates/config',
  '/convertConfig',
  '/video/market',
  '/video/production',
  '/user',
  '/tts',
];

/**
 * KOL_AUDIT_ONLY=<regular expression> audits only the routes and dialogs whose route or dialog
 * name it matches (while fixing a finding); the whole audit runs without it.
 */
const ONLY = process.env.KOL_AUDIT_ONLY ? new RegExp(process.env.KOL_AUDIT_ONLY) : null;
const wanted = (label: string) => ONLY === null || ONLY.test(label);

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: PHONE_VIEWPORT },
];

interface RouteFinding {
  route: string;
  width: string;
  violations: AxeViolation[];
  offPalette: OffPalette[];
  overflowPx: number;
  headerWraps: string[];
  covered: string[];
  actionRows: number;
}

let browser: Browser;
let account: { username: string; password: string };
/** A creator without a posting account (homePageUrl empty): the prompt 友情提示 comes up. */
let unposted: { username: string; password: string };

beforeAll(async () => {
  browser = await launchBrowser();
  account = await createUser({ templateIds: '0,1,2,3,4,5,6' });
  unposted = await createUser({ templateIds: '0,1,2,3,4,5,6', homePageUrl: false });
  // A count of every type, or a configuration page goes back (spec section 4).
  for (const type of ['comics', 'decompression', 'scroll', 'convert', 'market', 'realOpera']) {
    // Comics twice: the work routes' video spends one, and /video/config needs one left.
    await grantQuota(account.username, type, { gen: type === 'comics' ? 2 : 1 });
  }
});
afterAll(async () => {
  await browser?.close();
});

/**
 * The routes that need a work of one's own, on a comic clip of the account made through the API
 * and rendered (three sentences): its caption, role and shot-picture steps, its progress, its
 * video page and its editor. A picture of the account's is uploaded too, so the editor's picture
 * chooser shows one.
 */
const AUDIT_TITLE = '审计用作品';

async function workRoutes(
  page: Page,
): Promise<{ routes: string[]; promptWord: string; character: string; cut: string }> {
  const { workId } = await api<{ workId: number }>(page, '/api/video/save_text', {
    type: 0,
    title: AUDIT_TITLE,
    text: '灯塔亮了。老人推开窗。海上起风了。',
  });
  const { taskId } = await api<{ taskId: string }>(page, '/api/video/gen_video', { workId });
  await until(
    'the audit work’s video',
    async () => {
      const result = await api<{ state: string; error: string | null }>(
        page,
        `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
      );
      if (result.state === 'failed') throw new Error(`the audit work failed: ${result.error}`);
      return result.state === 'succeeded';
    },
    RENDER_LIMIT_MS,
    250,
  );
  const upload = await page.request.post('/api/file/upload_image', {
    multipart: {
      file: {
        name: '审计图片.png',
        mimeType: 'image/png',
        // A 1×1 PNG.
        buffer: Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
          'base64',
        ),
      },
    },
    headers: { platform: 'pc' },
  });
  expect(upload.status()).toBe(200);
  const promptWord = `/video/promptWord/${workId}?videoType=0&workId=${workId}`;
  const character = `/video/character?videoType=0&workId=${workId}`;
  const cut = `/work/cut/${workId}`;
  return {
    promptWord,
    character,
    cut,
    routes: [
      `/video/caption?videoType=0&workId=${workId}`,
      character,
      promptWord,
      `/video/production?workId=${workId}`,
      `/video/short/${taskId}`,
      cut,
    ],
  };
}

/** What a route's picture is called: its path and query as a file name. */
const pictureName = (width: string, route: string) =>
  `interface-${width}-${route.replace(/[/?&=]/g, '_') || '_'}`;

async function auditRoute(
  page: Page,
  route: string,
  width: string,
  dialog?: { name: string; open: (page: Page, width: string) => Promise<void> },
): Promise<RouteFinding> {
  await page.goto(route);
  await settle(page);
  // Every page has its h1 once its remote has rendered; on a busy machine the network was seen
  // quiet before (phone /video). A page without one still fails the audit after the wait.
  await page
    .locator('h1')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  if (dialog) {
    await dialog.open(page, width);
    await standStill(page);
  }
  const [violations, offPalette, fit] = [
    await axeViolations(page),
    await offPaletteColours(page),
    await phoneFit(page),
  ];
  await screenshot(page, pictureName(width, dialog ? `${route}-${dialog.name}` : route));
  return {
    route: dialog ? `${route} (${dialog.name})` : route,
    width,
    violations,
    offPalette,
    overflowPx: width === 'phone' ? fit.overflowPx : 0,
    headerWraps: fit.headerWraps,
    // An open dialog covers the page by design.
    covered: dialog ? [] : fit.covered,
    actionRows: width === 'phone' ? fit.actionRows : 0,
  };
}

function summary(findings: RouteFinding[]): string {
  const byImpact: Record<string, number> = {};
  for (const finding of findings) {
    for (const violation of finding.violations) {
      byImpact[violation.impact] = (byImpact[violation.impact] ?? 0) + 1;
    }
  }
  const lines = [
    `axe violations by impact (rule × route): ${JSON.stringify(byImpact)}`,
    `routes off the palette: ${findings.filter((f) => f.offPalette.length > 0).length} of ${findings.length}`,
    `phone pages too wide: ${findings.filter((f) => f.overflowPx > 0).length}; header texts wrapped: ${findings.filter((f) => f.headerWraps.length > 0).length}; controls covered: ${findings.filter((f) => f.covered.length > 0).length}; action bars over one row: ${findings.filter((f) => f.actionRows > 1).length}`,
  ];
  for (const finding of findings) {
    for (const violation of finding.violations) {
      lines.push(
        `  ${finding.width} ${finding.route}: ${violation.impact} ${violation.id} — ${violation.targets.join(' | ')} (${violation.detail})`,
      );
    }
    for (const off of finding.offPalette.slice(0, 4)) {
      lines.push(
        `  ${finding.width} ${finding.route}: off palette ${off.property} ${off.color} on ${off.element} 「${off.text}」`,
      );
    }
    if (finding.overflowPx > 0)
      lines.push(`  ${finding.width} ${finding.route}: ${finding.overflowPx} px too wide`);
    for (const text of finding.headerWraps) {
      lines.push(`  ${finding.width} ${finding.route}: 「${text}」 wraps in the header`);
    }
    for (const control of finding.covered) {
      lines.push(`  ${finding.width} ${finding.route}: covered: ${control}`);
    }
    if (finding.actionRows > 1)
      lines.push(`  ${finding.width} ${finding.route}: action bar in ${finding.actionRows} rows`);
  }
  return lines.join('\n');
}

/** How long the notices bell took to open, click to panel, at each width audited. */
const bellOpenedMs: number[] = [];

/** Opens the menu of a work's card on the works list and picks `item` from it. */
async function workMenu(page: Page, item: RegExp): Promise<void> {
  await page.getByRole('button', { name: `更多 ${AUDIT_TITLE}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
  await page.getByRole('dialog').waitFor();
}

/**
 * The dialogs and popups a creator opens, each audited open on its page: the shell's (the
 * notices, the user menu, 联系我们: the header's items are the desktop layout's; 社区公约 from the
 * side menu, on a phone from the menu's drawer; 友情提示, the posting-account prompt, to a
 * creator without one), the works list's (play, rename, delete), My roles' 新建角色, the comic
 * flow's 从角色库添加 and 生成视频's confirmation, the editor's 选择已上传图片 and a Select's open
 * list (/generate's 平台). Each is left open; the next route is a new load.
 */
const DIALOGS: {
  name: string;
  route: (work: { promptWord: string; character: string; cut: string }) => string;
  open: (page: Page, width: string) => Promise<void>;
  desktopOnly?: boolean;
  /** Audited signed in as `unposted` (a creator without a posting account). */
  unposted?: boolean;
}[] = [
  {
    name: 'notices',
    route: () => '/',
    desktopOnly: true,
    open: async (page) => {
      const started = Date.now();
      await page.getByRole('button', { name: /^通知/ }).click();
      await page.getByTestId('notices-panel').waitFor();
      bellOpenedMs.push(Date.now() - started);
    },
  },
  {
    name: 'user-menu',
    route: () => '/',
    desktopOnly: true,
    open: async (page) => {
      await page.getByTestId('user-menu').click();
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').waitFor();
    },
  },
  {
    name: 'contact',
    route: () => '/',
    desktopOnly: true,
    open: async (page) => {
      await page.getByText('联系我们').click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'convention',
    route: () => '/',
    open: async (page, width) => {
      // On a phone the side menu is folded into the drawer behind 菜单 (`/` goes to `/m`).
      if (width === 'phone') await page.getByRole('button', { name: '菜单' }).click();
      await page.getByTestId('side-menu').getByText('社区公约').click();
      await page.getByRole('dialog', { name: '社区公约' }).waitFor();
    },
  },
  {
    // The prompt that cannot be closed, 20 ms after a page, while the posting account is empty.
    name: 'posting-account',
    route: () => '/',
    unposted: true,
    open: async (page) => {
      await page.getByRole('dialog', { name: '友情提示' }).waitFor();
    },
  },
  { name: 'play', route: () => '/work/comics?tab=works', open: (page) => workMenu(page, /播放/) },
  {
    name: 'rename',
    route: () => '/work/comics?tab=works',
    open: (page) => workMenu(page, /重命名/),
  },
  { name: 'delete', route: () => '/work/comics?tab=works', open: (page) => workMenu(page, /删除/) },
  {
    name: 'new-role',
    route: () => '/work/character',
    open: async (page) => {
      await page
        .getByRole('button', { name: /新建角色/ })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'role-library',
    route: (work) => work.character,
    open: async (page) => {
      await page.getByRole('button', { name: /从角色库添加/ }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    // 生成视频's confirmation, with what it spends.
    name: 'generate',
    route: (work) => work.promptWord,
    open: async (page) => {
      await page.getByRole('button', { name: /^生成视频/ }).click();
      await page
        .getByRole('dialog')
        .getByText(/将消耗 1 次/)
        .waitFor();
    },
  },
  {
    // The editor's 选择已上传图片 (the first segment is chosen on load), with the account's
    // uploaded picture listed.
    name: 'cut-picture-chooser',
    route: (work) => work.cut,
    open: async (page) => {
      await page.getByRole('button', { name: '选择已上传图片' }).click();
      await page
        .getByRole('dialog', { name: '选择已上传图片' })
        .getByRole('button', { name: /^选择图片 / })
        .first()
        .waitFor();
    },
  },
  {
    // A Select's list, open: antd puts it on the body, outside the page's landmarks.
    name: 'select-open',
    route: () => '/generate',
    open: async (page) => {
      await page.getByTestId('platform-select').click();
      await page
        // The list's items (antd's role="option" copies for screen readers are not drawn).
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .first()
        .waitFor();
    },
  },
];

describe('the interface audit', () => {
  it('finds a deliberately unlabeled button, a hard-coded blue and light native controls (the scans can fail)', async () => {
    const { context, page } = await newPage(browser, WIDTHS[0]?.viewport);
    await page.setContent(
      `<html lang="zh-CN"><head><title>自检</title></head><body><main><h1>自检</h1>
        <button type="button"><svg aria-hidden="true" width="16" height="16"></svg></button>
        <p style="color: #1677ff">默认的蓝色链接</p></main></body></html>`,
    );
    const violations = await axeViolations(page);
    expect(violations.map((violation) => violation.id)).toContain('button-name');
    const off = await offPaletteColours(page);
    expect(off.map((entry) => entry.color)).toContain('rgb(22, 119, 255)');
    // A page that does not say it is dark gets the browser's light players and scrollbars.
    expect(off.map((entry) => entry.property)).toContain('color-scheme');
    await context.close();
  });

  it('finds no accessibility violation, no colour off the theme and no phone page too wide on any route', async () => {
    const findings: RouteFinding[] = [];
    let work: Awaited<ReturnType<typeof workRoutes>> | null = null;
    for (const { name, viewport } of WIDTHS) {
      const { context, page } = await newPage(browser, viewport);
      followRequests(page);
      await signIn(page, account.username, account.password);
      work ??= await workRoutes(page);
      for (const route of [...ROUTES, ...work.routes].filter(wanted)) {
        findings.push(await auditRoute(page, route, name));
      }
      if (name === 'desktop') {
        // The user menu closes once 个人中心 is chosen (it stayed open over /user).
        await page.goto('/');
        await settle(page);
        await page.getByTestId('user-menu').click();
        await page.getByRole('menuitem', { name: /个人中心/ }).click();
        await page.waitForURL((url) => url.pathname === '/user');
        await page.getByRole('heading', { name: '个人中心', level: 1 }).waitFor();
        await page.waitForTimeout(500);
        expect(await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').count()).toBe(0);
      }
      const chosen = DIALOGS.filter(
        (dialog) => !(dialog.desktopOnly && name !== 'desktop') && wanted(dialog.name),
      );
      for (const dialog of chosen.filter((d) => !d.unposted)) {
        findings.push(await auditRoute(page, dialog.route(work), name, dialog));
      }
      await context.close();
      const forUnposted = chosen.filter((d) => d.unposted);
      if (forUnposted.length > 0) {
        const other = await newPage(browser, viewport);
        followRequests(other.page);
        await signIn(other.page, unposted.username, unposted.password);
        for (const dialog of forUnposted) {
          findings.push(await auditRoute(other.page, dialog.route(work), name, dialog));
        }
        await other.context.close();
      }
    }
    const report = summary(findings);
    console.log(
      `${report}\nthe notices bell opened in ${bellOpenedMs.join(', ')} ms (click to the panel shown)`,
    );
    expect(
      findings.flatMap((f) => f.violations.map((v) => `${f.width} ${f.route} ${v.id}`)),
    ).toEqual([]);
    expect(
      findings.flatMap((f) => f.offPalette.map((o) => `${f.width} ${f.route} ${o.color}`)),
    ).toEqual([]);
    expect(
      findings
        .filter(
          (f) =>
            f.overflowPx > 0 ||
            f.headerWraps.length > 0 ||
            f.covered.length > 0 ||
            f.actionRows > 1,
        )
        .map((f) => `${f.width} ${f.route}`),
    ).toEqual([]);
  }, 900_000);
});
