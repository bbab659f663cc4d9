import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  axeViolations,
  offPaletteColours,
  phoneFit,
  type AxeViolation,
  type OffPalette,
} from '../support/audit';
import { createUser, kol, launchBrowser, newPage, screenshot, signIn } from '../support/platform';

/**
 * The interface audit (issue 32): every route of spec section 2 a creator reaches without a
 * work of their own, at desktop width (1440x900) and phone width (375x812), with the
 * accessibility engine (axe-core, every rule it runs by default), the colours against the
 * theme's palette, and at phone width the page's width and the header. A picture of each is
 * kept in e2e/artifacts/interface-<width>-<route>.png.
 */
const ROUTES = [
  '/',
  '/home',
  '/login',
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

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 375, height: 812 } },
];

interface RouteFinding {
  route: string;
  width: string;
  violations: AxeViolation[];
  offPalette: OffPalette[];
  overflowPx: number;
  headerWraps: string[];
  covered: string[];
}

let browser: Browser;
let account: { username: string; password: string };

beforeAll(async () => {
  browser = await launchBrowser();
  account = await createUser({ templateIds: '0,1,2,3,4,5,6' });
  // A count of every type, or a configuration page goes back (spec section 4).
  for (const type of ['comics', 'decompression', 'scroll', 'convert', 'market', 'realOpera']) {
    await kol('quota', 'grant', account.username, '--type', type, '--gen', '1');
  }
});
afterAll(async () => {
  await browser?.close();
});

/** The page as it settles: the remote loaded, nothing spinning, the network quiet. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'), {
      timeout: 15_000,
    })
    .catch(() => undefined);
}

async function auditRoute(page: Page, route: string, width: string): Promise<RouteFinding> {
  await page.goto(route);
  await settle(page);
  const [violations, offPalette, fit] = [
    await axeViolations(page),
    await offPaletteColours(page),
    await phoneFit(page),
  ];
  await screenshot(page, `interface-${width}-${route.replace(/\//g, '_') || '_'}`);
  return {
    route,
    width,
    violations,
    offPalette,
    overflowPx: width === 'phone' ? fit.overflowPx : 0,
    headerWraps: fit.headerWraps,
    covered: fit.covered,
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
    `phone pages too wide: ${findings.filter((f) => f.overflowPx > 0).length}; header texts wrapped: ${findings.filter((f) => f.headerWraps.length > 0).length}; controls covered: ${findings.filter((f) => f.covered.length > 0).length}`,
  ];
  for (const finding of findings) {
    for (const violation of finding.violations) {
      lines.push(
        `  ${finding.width} ${finding.route}: ${violation.impact} ${violation.id} — ${violation.targets.join(' | ')}`,
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
  }
  return lines.join('\n');
}

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
    for (const { name, viewport } of WIDTHS) {
      const { context, page } = await newPage(browser, viewport);
      await signIn(page, account.username, account.password);
      for (const route of ROUTES) findings.push(await auditRoute(page, route, name));
      await context.close();
    }
    const report = summary(findings);
    console.log(report);
    expect(
      findings.flatMap((f) => f.violations.map((v) => `${f.width} ${f.route} ${v.id}`)),
    ).toEqual([]);
    expect(
      findings.flatMap((f) => f.offPalette.map((o) => `${f.width} ${f.route} ${o.color}`)),
    ).toEqual([]);
    expect(
      findings
        .filter((f) => f.overflowPx > 0 || f.headerWraps.length > 0 || f.covered.length > 0)
        .map((f) => `${f.width} ${f.route}`),
    ).toEqual([]);
  }, 900_000);
});
