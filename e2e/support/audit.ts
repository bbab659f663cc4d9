import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page, Request } from 'playwright-core';
import { screenshot } from './platform';

/**
 * What the interface audit (tests/interface.test.ts) measures on a page as a creator sees it:
 * the accessibility engine's violations, the colours outside the theme, and, at phone width,
 * what does not fit.
 */

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** The first elements concerned (CSS selectors), enough to find them. */
  targets: string[];
  /** What axe says is wrong with the first of them (the colours and ratio of a contrast, …). */
  detail: string;
}

/**
 * Runs axe-core on the page with every rule it runs by default (WCAG A/AA and best practices),
 * the open dialogs and popups included. Injected through the DevTools protocol, as a tester's
 * console would: the page's content security policy does not apply to it.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: RunOptions): Promise<AxeResults> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'minor',
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      detail: (violation.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
    }));
  });
}

const THEME = JSON.parse(
  readFileSync(
    path.resolve(__dirname, '..', '..', 'shared-sdk', 'src', 'ui', 'kol-theme.json'),
    'utf8',
  ),
) as { token: { colorPrimary: string } };

/**
 * The hues a colourful element may have: the theme's primary (pink) and antd's status colours
 * in the dark algorithm (success green, warning gold, error red). Greys, white and black are
 * always on the palette. antd's default blue (#1677ff: links, info, progress) is the one this
 * keeps out.
 */
export const PALETTE_HUES: Record<string, string> = {
  primary: THEME.token.colorPrimary,
  success: '#49aa19',
  warning: '#d89614',
  error: '#dc4446',
};

/** Hue (degrees) and saturation (0–1) of a hex colour. */
function hueSaturation(r: number, g: number, b: number): { hue: number; saturation: number } {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const delta = max - min;
  const lightness = (max + min) / 2;
  const saturation = delta === 0 ? 0 : delta / (1 - Math.abs(2 * lightness - 1));
  let hue = 0;
  if (delta !== 0) {
    if (max === rn) hue = 60 * (((gn - bn) / delta) % 6);
    else if (max === gn) hue = 60 * ((bn - rn) / delta + 2);
    else hue = 60 * ((rn - gn) / delta + 4);
  }
  return { hue: (hue + 360) % 360, saturation };
}

function hexRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const ALLOWED_HUES = Object.values(PALETTE_HUES).map((hex) => hueSaturation(...hexRgb(hex)).hue);

/** True when an `rgb()`/`rgba()` colour is a grey or close to a palette hue. */
export function onPalette(color: string): boolean {
  const match = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(color);
  if (!match) return true;
  const [r, g, b] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const alpha = match[4] === undefined ? 1 : Number(match[4]);
  if (alpha < 0.05) return true;
  const { hue, saturation } = hueSaturation(r, g, b);
  // Nearly grey, or too faint to read as a colour.
  if (saturation < 0.2 || Math.max(r, g, b) < 40) return true;
  return ALLOWED_HUES.some((allowed) => {
    const distance = Math.abs(hue - allowed);
    return Math.min(distance, 360 - distance) <= 22;
  });
}

export interface OffPalette {
  color: string;
  property: string;
  element: string;
  text: string;
}

/**
 * The visible elements' text, background and border colours (and SVG fills) that are off the
 * palette, one per colour and property.
 */
export async function offPaletteColours(page: Page): Promise<OffPalette[]> {
  const seen = await page.evaluate(() => {
    const found: { color: string; property: string; element: string; text: string }[] = [];
    const keys = new Set<string>();
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0)
        continue;
      // The watermark and pictures the creator made (covers, frames, portraits) are content.
      if (element.closest('img, video, canvas, [data-content-colour]')) continue;
      const hasText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
      );
      const candidates: [string, string][] = [['background-color', style.backgroundColor]];
      if (hasText) candidates.push(['color', style.color]);
      if (Number.parseFloat(style.borderTopWidth) > 0)
        candidates.push(['border-color', style.borderTopColor]);
      if (element instanceof SVGElement || element.closest('svg')) {
        candidates.push(['fill', style.fill]);
        candidates.push(['color', style.color]);
      }
      for (const [property, color] of candidates) {
        const key = `${property}|${color}`;
        if (keys.has(key)) continue;
        keys.add(key);
        const classes = typeof element.className === 'string' ? element.className : '';
        found.push({
          color,
          property,
          element: `${element.tagName.toLowerCase()}${classes ? `.${classes.trim().split(/\s+/).slice(0, 2).join('.')}` : ''}`,
          text: (element.textContent ?? '').trim().slice(0, 20),
        });
      }
    }
    return found;
  });
  const off = seen.filter((entry) => !onPalette(entry.color));
  // The browser draws its own controls (audio and video players, scrollbars, date fields) light
  // unless the page says it is dark: a white player on a dark page is off the palette too.
  const scheme = await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
  if (!scheme.split(/\s+/).includes('dark')) {
    off.push({
      color: `color-scheme: ${scheme}`,
      property: 'color-scheme',
      element: 'html',
      text: '',
    });
  }
  return off;
}

export interface PhoneFit {
  /** How much wider than the window the page is (0: it fits). */
  overflowPx: number;
  /** The header's texts drawn on more than one line (the logo, the username). */
  headerWraps: string[];
  /**
   * Controls of the page that something outside it (the menu's opener) is drawn over; a passing
   * message is not counted.
   */
  covered: string[];
  /** The rows of the phone's action bar (页面操作; 0 without one): one is the design. */
  actionRows: number;
}

export async function phoneFit(page: Page): Promise<PhoneFit> {
  return page.evaluate(() => {
    const overflowPx = Math.max(0, document.documentElement.scrollWidth - window.innerWidth);
    const headerWraps = [...document.querySelectorAll<HTMLElement>('header *')]
      // The header's popups (the notices panel, the user menu) are put inside it, and their
      // texts may wrap.
      .filter((element) => !element.closest('.ant-popover, .ant-dropdown'))
      .filter((element) =>
        [...element.childNodes].some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
        ),
      )
      .filter((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        return lines.size > 1;
      })
      .map((element) => (element.textContent ?? '').trim());
    const main = document.querySelector('main');
    const covered: string[] = [];
    if (main) {
      for (const control of main.querySelectorAll<HTMLElement>(
        'button, input, textarea, a[href], [role="button"], [role="tab"]',
      )) {
        const box = control.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) continue;
        const top = document.elementFromPoint(x, y);
        // A message (图片已上传, 已保存…) is drawn over the page for its few seconds by design:
        // whether it is still there depends on the machine's speed, not on the layout.
        if (top && !main.contains(top) && !top.closest('.ant-message, .ant-notification')) {
          covered.push(
            `${(control.textContent ?? '').trim().slice(0, 12) || control.getAttribute('aria-label') || control.tagName} under ${top.className || top.tagName}`,
          );
        }
      }
    }
    const bar = document.querySelector('[role="toolbar"][aria-label="页面操作"]');
    const actionRows = bar
      ? new Set(
          [...bar.children]
            .map((child) => child.getBoundingClientRect())
            .filter((box) => box.width > 0 && box.height > 0)
            .map((box) => Math.round(box.top + box.height / 2)),
        ).size
      : 0;
    return { overflowPx, headerWraps, covered, actionRows };
  });
}

/**
 * Waits for the page to stand still: antd zooms dialogs and popups in and fades messages, and a
 * colour read halfway through (a link at 84 % of its opacity) is not the one a creator reads.
 * Endless animations (spinners, a progress bar's shine) are not waited for.
 */
export async function standStill(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== 'running' ||
              animation.effect?.getTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/** The requests of a page still waiting for their answer, followed from the first call on. */
const pending = new WeakMap<Page, Set<Request>>();

/**
 * Starts following a page's requests (before its first `goto`, so that `settle` knows what the
 * load asked for); `settle` calls it too, for a page it meets first.
 */
export function followRequests(page: Page): Set<Request> {
  let open = pending.get(page);
  if (!open) {
    const requests = new Set<Request>();
    page.on('request', (request) => requests.add(request));
    page.on('requestfinished', (request) => requests.delete(request));
    page.on('requestfailed', (request) => requests.delete(request));
    pending.set(page, requests);
    open = requests;
  }
  return open;
}

/**
 * How long no request may be open before a loaded page counts as settled: a remote's page asks
 * for its data once its code has run, and a chain of calls has gaps between its answers.
 */
const QUIET_MS = 150;

/**
 * Waits for the page as it settles: the remote's code and the page's calls answered (no request
 * open for QUIET_MS), what they brought painted (two animation frames), nothing spinning or
 * loading its skeleton, then standing still. Playwright's `networkidle` asks for 500 ms without
 * a connection, a second per page on a busy machine; a remote's page asks for its data as soon
 * as its code has run (behind a spinner until then), so a shorter quiet with the spinners
 * checked sees the same page. Gives up after `limitMs` (a player's range requests may stay
 * open) and audits what is there.
 */
export async function settle(
  page: Page,
  { quietMs = QUIET_MS, limitMs = 15_000 }: { quietMs?: number; limitMs?: number } = {},
): Promise<void> {
  const open = followRequests(page);
  const deadline = Date.now() + limitMs;
  let quietSince = open.size === 0 ? Date.now() : Infinity;
  while (Date.now() < deadline) {
    if (open.size > 0) quietSince = Infinity;
    else if (quietSince === Infinity) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) {
      const ready = await page
        .evaluate(
          () =>
            new Promise<boolean>((resolve) =>
              requestAnimationFrame(() =>
                requestAnimationFrame(() =>
                  resolve(
                    document.readyState === 'complete' &&
                      !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'),
                  ),
                ),
              ),
            ),
        )
        // A navigation (the host's redirect to /m) destroyed the context: not settled yet.
        .catch(() => false);
      if (ready && open.size === 0) break;
      quietSince = Infinity;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await standStill(page);
}

/** The quiet asked for after a resize (settle's default is for a page's load). */
const RESIZE_QUIET_MS = 50;

/** The phone width the audit checks (tests/interface.test.ts and the flows' states). */
export const PHONE_VIEWPORT = { width: 375, height: 812 };

/**
 * The paths the host sends to /m/... on a narrow screen (spec section 2), read from the host's
 * own rule so the two cannot drift: a flow's page on one of them would be remounted by a
 * resize, losing what the flow typed.
 */
const MOBILE_PAGES: string[] = (() => {
  const rules = readFileSync(
    path.resolve(__dirname, '..', '..', 'host-shell', 'src', 'session', 'route-rules.ts'),
    'utf8',
  );
  const list = /export const MOBILE_PAGES = \[([^\]]*)\]/.exec(rules)?.[1];
  if (!list) throw new Error('MOBILE_PAGES not found in host-shell/src/session/route-rules.ts');
  return [...list.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '');
})();

/** True while a dialog (antd's modal or drawer) is open: it covers the page by design. */
export function dialogOpen(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role="dialog"], .ant-drawer-open')].some(
      (element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
      },
    ),
  );
}

/** What a phone page shows that does not fit, one line each (none: it fits). */
export function phoneProblems(fit: PhoneFit, withDialog: boolean): string[] {
  return [
    ...(fit.overflowPx > 0 ? [`${fit.overflowPx} px too wide`] : []),
    ...fit.headerWraps.map((text) => `「${text}」 wraps in the header`),
    // An open dialog covers the page by design.
    ...(withDialog ? [] : fit.covered.map((control) => `covered: ${control}`)),
    ...(fit.actionRows > 1 ? [`action bar in ${fit.actionRows} rows`] : []),
  ];
}

/** axe's violations and the colours off the palette, one line each. */
async function cleanFindings(page: Page): Promise<string[]> {
  const violations = await axeViolations(page);
  const offPalette = await offPaletteColours(page);
  return [
    ...violations.map(
      (violation) =>
        `${violation.impact} ${violation.id} — ${violation.targets.join(' | ')} (${violation.detail})`,
    ),
    ...offPalette.map(
      (off) => `off palette ${off.property} ${off.color} on ${off.element} 「${off.text}」`,
    ),
  ];
}

/**
 * The same state at phone width, without replaying the flow: the window narrowed in place to
 * 375x812, the page settled, audited as the interface test audits a phone page (axe, the
 * palette, the page's width, the header, covered controls, the action bar), then the window
 * given back its size and the page settled again, so the flow goes on as it was. Answers the
 * findings, or why the phone was skipped.
 */
async function phoneFindings(
  page: Page,
  name: string,
): Promise<{ findings: string[]; skipped?: string }> {
  const viewport = page.viewportSize();
  const before = page.url();
  const { pathname } = new URL(before);
  if (!viewport) return { findings: [], skipped: 'the page has no viewport to narrow' };
  if (MOBILE_PAGES.includes(pathname)) {
    // The host would send it to /m on a narrow window and remount it: the flow's state would
    // be lost. The phone page of these routes is audited by tests/interface.test.ts.
    return { findings: [], skipped: `the host sends ${pathname} to /m${pathname} on a phone` };
  }
  await page.setViewportSize(PHONE_VIEWPORT);
  try {
    await page.waitForFunction((width) => window.innerWidth === width, PHONE_VIEWPORT.width);
    // A resize asks for little (a part drawn only on a phone, its code): a short quiet, with
    // the two frames and the spinners checked, sees it.
    await settle(page, { quietMs: RESIZE_QUIET_MS });
    if (page.url() !== before) {
      // A redirect the host's list does not name: nothing of this state is left to audit.
      return { findings: [], skipped: `the narrow window sent the page to ${page.url()}` };
    }
    // From the top, as the page opens: scrolled where a click left it, a control passing under
    // the fixed header reads as covered, which is scrolling, not the layout.
    await page.evaluate(() => window.scrollTo(0, 0));
    const findings = await cleanFindings(page);
    findings.push(...phoneProblems(await phoneFit(page), await dialogOpen(page)));
    if (findings.length > 0) await screenshot(page, `audit-phone-${name}`);
    return { findings };
  } finally {
    await page.setViewportSize(viewport);
    await page.waitForFunction((width) => window.innerWidth === width, viewport.width);
    if (page.url() !== before) {
      // Back at its width, the host brings a redirected page back to its path.
      await page.waitForURL(before);
    }
    await settle(page, { quietMs: RESIZE_QUIET_MS });
  }
}

/**
 * The audit of a page reached inside a flow (a step that needs a work of its own: the anime
 * short's and the drama's steps, the market's, the editor's, the de-dup's, the dialogs the
 * writing and works flows open), as tests/interface.test.ts audits the routes a creator reaches
 * without a work: at the flow's width (the accessibility engine and the palette), then the same
 * state at phone width (phoneFindings). Fails naming every finding and its width.
 */
export async function expectCleanPage(page: Page, name: string): Promise<void> {
  await standStill(page);
  const desktop = await cleanFindings(page);
  const phone = await phoneFindings(page, name);
  if (phone.skipped) console.warn(`the audit of ${name} skipped the phone width: ${phone.skipped}`);
  const findings = [
    ...desktop.map((finding) => `desktop: ${finding}`),
    ...phone.findings.map((finding) => `phone: ${finding}`),
  ];
  if (findings.length > 0) {
    throw new Error(`the audit of ${name} (${page.url()}) found:\n  ${findings.join('\n  ')}`);
  }
}
