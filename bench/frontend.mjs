// What a creator's browser downloads and waits for, in Debian's Chromium with its cache off:
// the JS and CSS of the first load of `/` signed in and of `/home` signed out, over the wire and
// decoded, with the time each takes to show; every file of the signed-in load; and the time from
// a menu click to a remote's page, cold and preloaded (by a hover, or at idle). Each first load
// is measured twice: as the browser asks (Accept-Encoding: gzip, deflate, br, zstd) and with
// compression refused (identity), so one run shows what the compressed copies save.
//
//   node bench/frontend.mjs [--runs 3] [--url http://127.0.0.1:8080]
//
// Without --url it starts the product as the README's start command does (scripts/start.mjs:
// builds what changed, publishes the remotes) on a free port with a fresh data folder, and
// signs in as the demo user it creates. Needs /usr/bin/chromium (the e2e setup installs it).
/* global window, document, requestIdleCallback -- functions passed to page.evaluate run in the browser */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startProduct as startProductIn } from './lib/product.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// playwright-core is a dependency of @kol/e2e; resolve it from there.
const { chromium } = createRequire(path.join(root, 'e2e', 'package.json'))('playwright-core');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    url: { type: 'string' },
    monolith: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const runs = Number(values.runs);

/** The product with fresh data; its built-in library is not warmed (it would take the cores). */
const startProduct = (env = {}) =>
  startProductIn({ WARM_UP_LIBRARIES: 'false', ...env }, 'kol-bench-front-');
process.on('SIGINT', () => process.exit(130));

const base = values.url ?? (await startProduct());

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

/**
 * Runs in every page before its own scripts: records `performance.now()` the first time each
 * readiness condition holds after a DOM change, and the time of the last click, so the bench
 * reads times the page itself measured.
 */
const WATCH_PAGE = `(() => {
  window.__kolShown = {};
  const hasButton = (pattern) =>
    [...document.querySelectorAll('button')].some((b) => pattern.test(b.textContent));
  const heading = (text) =>
    [...document.querySelectorAll('h1, h2, h3, h4, h5')].some((h) => h.textContent.trim() === text);
  const checks = {
    frame: () => document.querySelector('[data-testid="side-menu"]') !== null,
    home: () => document.querySelector('[data-testid="home-page"]') !== null,
    signedOutHome: () => location.pathname === '/home' && hasButton(/登\\s*录/),
    heading: () => window.__kolHeading !== undefined && heading(window.__kolHeading),
  };
  new MutationObserver(() => {
    for (const [name, check] of Object.entries(checks))
      if (window.__kolShown[name] === undefined && check()) window.__kolShown[name] = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
  document.addEventListener('click', (event) => { window.__kolClickAt = event.timeStamp; }, true);
})();`;

/**
 * Loads `pathname` in a fresh context (signed in when `cookies` are given) with the cache off,
 * until `ready` resolves, and returns every JS and CSS response with its bytes over the wire
 * (CDP's encodedDataLength: headers and body as received) and decoded.
 */
async function load(pathname, { identity, cookies, ready, url = base }) {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    locale: 'zh-CN',
    baseURL: url,
  });
  if (cookies) await context.addCookies(cookies);
  await context.addInitScript(WATCH_PAGE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (identity) {
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  }
  const files = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type !== 'Script' && type !== 'Stylesheet') return;
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    files.set(requestId, {
      url: response.url,
      encoding: headers['content-encoding'] ?? '',
      wire: 0,
      decoded: 0,
    });
  });
  cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
    const file = files.get(requestId);
    if (file) file.decoded += dataLength;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const file = files.get(requestId);
    if (file) file.wire = encodedDataLength;
  });
  await page.goto(pathname);
  // Timed in the page, from the end of the HTML's response to the first DOM change after which
  // the page is ready (see WATCH_PAGE), so Playwright's own round trips are not counted.
  const shown = await page.waitForFunction(
    (name) => {
      const at = window.__kolShown[name];
      if (at === undefined) return false;
      return at - performance.getEntriesByType('navigation')[0].responseEnd;
    },
    ready,
    { timeout: 60_000 },
  );
  const ms = Math.round(await shown.jsonValue());
  // Chunks the page asked for while it settled.
  await page.waitForLoadState('networkidle');
  const list = [...files.values()];
  await context.close();
  return { ms, files: list };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const sum = (files, key) => files.reduce((total, file) => total + file[key], 0);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The demo user's session on the product at `url`: the cookie pairs and the browser cookies. */
async function signInDemo(url) {
  const login = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', platform: 'pc' },
    body: JSON.stringify({ username: 'demo', password: 'demo123456' }),
  });
  const pairs = login.headers.getSetCookie().map((line) => line.split(';')[0]);
  const browserCookies = pairs.map((pair) => {
    const [name, ...rest] = pair.split('=');
    return { name, value: rest.join('='), url };
  });
  return { pairs, browserCookies };
}
const { pairs: setCookie, browserCookies: cookies } = await signInDemo(base);

const scenarios = [
  { name: '/ signed in, frame shown', pathname: '/', cookies, ready: 'frame' },
  { name: '/ signed in, home page shown', pathname: '/', cookies, ready: 'home' },
  { name: '/ signed out until /home shows', pathname: '/', ready: 'signedOutHome' },
];

const rows = [];
let largest = [];
for (const scenario of scenarios) {
  for (const identity of [false, true]) {
    const measured = [];
    for (let i = 0; i < runs; i += 1)
      measured.push(await load(scenario.pathname, { ...scenario, identity }));
    const last = measured[measured.length - 1];
    rows.push({
      page: scenario.name,
      'Accept-Encoding': identity ? 'identity' : 'browser',
      files: last.files.length,
      'over the wire': kb(sum(last.files, 'wire')),
      decoded: kb(sum(last.files, 'decoded')),
      compressed: `${last.files.filter((f) => f.encoding).length} of ${last.files.length}`,
      'from the HTML to shown (median)': `${median(measured.map((m) => m.ms))} ms`,
    });
    if (!identity && scenario.cookies) largest = last.files;
  }
}

console.log(`\nJS and CSS of the first load, Chromium, cache off, ${runs} runs each (${base})\n`);
console.table(rows);
console.log('\nEvery file of / signed in, largest first, as the browser asks:\n');
console.table(
  [...largest]
    .sort((a, b) => b.decoded - a.decoded)
    .map((file) => ({
      file: new URL(file.url).pathname,
      'over the wire': kb(file.wire),
      decoded: kb(file.decoded),
      'content-encoding': file.encoding || 'none',
    })),
);
// Click to page: a menu item of each remote, its page's heading shown. Cold: the remote never
// fetched in this browser context. Hovered: the item hovered first (the host fetches the
// remote's entry and page chunk then), the click once that page chunk has arrived. Idle: no
// hover; the click once the host's idle-time preload has fetched that page chunk.
await fetch(`${base}/api/user/update_user_info`, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    platform: 'pc',
    cookie: setCookie.join('; '),
  },
  // The posting-account prompt would cover the menu otherwise.
  body: JSON.stringify({ homePageUrl: 'https://example.com/bench' }),
});
const ITEMS = [
  { label: '一键成文', remote: 'mfe_writing', heading: '一键成文' },
  { label: '我的文案', remote: 'mfe_works', heading: '我的文案' },
  { label: '视频合成', remote: 'mfe_video', heading: '视频合成' },
];
/**
 * Resolves once `page` has had no request in flight for `quietMs` (requests already under way
 * when it is called are waited for through the quiet period: they end within it on loopback).
 */
async function networkQuiet(page, quietMs = 500) {
  const inFlight = new Set();
  let lastChange = Date.now();
  const started = (request) => {
    inFlight.add(request);
    lastChange = Date.now();
  };
  const ended = (request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  while (inFlight.size > 0 || Date.now() - lastChange < quietMs)
    await new Promise((resolve) => setTimeout(resolve, 50));
  page.off('request', started);
  page.off('requestfinished', ended);
  page.off('requestfailed', ended);
}

/** From the pointer's arrival on a menu item to the press, for a person: well over this. */
const POINTER_TO_CLICK_MS = 150;

async function clickToPage(item, mode) {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    locale: 'zh-CN',
    baseURL: base,
  });
  await context.addCookies(cookies);
  await context.addInitScript(WATCH_PAGE);
  const page = await context.newPage();
  await page.goto('/');
  await page.getByTestId('home-page').waitFor({ timeout: 60_000 });
  const menuItem = page.getByTestId('side-menu').getByText(item.label, { exact: true });
  if (mode !== 'cold') {
    const chunk = page.waitForResponse(
      (response) =>
        new RegExp(`/remotes/${item.remote}/[^/]+/__federation_expose_App\\.`).test(response.url()),
      { timeout: 60_000 },
    );
    // Hovered: the host preloads on mouse enter. Idle: it preloads the menu's remotes by itself
    // a few seconds after the first page.
    if (mode === 'hovered') await menuItem.hover();
    await (await chunk).finished();
    // Preloaded means done: the page chunk's own imports arrived and ran too (and, at idle, the
    // preloads of the other remotes that follow it), so the click does not share the page with
    // a preload still under way.
    await networkQuiet(page);
    // A hand's click comes after the pointer has arrived on the item (its hover state drawn),
    // not in the same instant: at idle the pointer arrives now, hovered it arrived long ago.
    if (mode === 'idle') {
      await menuItem.hover();
      await page.waitForTimeout(POINTER_TO_CLICK_MS);
    }
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  }
  await page.evaluate((heading) => {
    const shown = [...document.querySelectorAll('h1, h2, h3, h4, h5')].some(
      (h) => h.textContent.trim() === heading,
    );
    if (shown) throw new Error(`the heading ${heading} is on the page before the click`);
    window.__kolHeading = heading;
  }, item.heading);
  await menuItem.click();
  // From the click event to the DOM change that showed the heading, both timed in the page.
  const ms = await page.waitForFunction(
    () =>
      window.__kolShown.heading !== undefined && window.__kolShown.heading - window.__kolClickAt,
    undefined,
    { timeout: 60_000 },
  );
  const value = Math.round(await ms.jsonValue());
  await context.close();
  return value;
}
const clicks = [];
for (const item of ITEMS) {
  const row = { 'menu item': item.label, remote: item.remote };
  for (const mode of ['cold', 'hovered', 'idle']) {
    const times = [];
    for (let i = 0; i < runs; i += 1) times.push(await clickToPage(item, mode));
    row[`${mode} (median)`] = `${median(times)} ms`;
  }
  clicks.push(row);
}
console.log(`\nClick to page (the page's heading shown), ${runs} runs each:\n`);
console.table(clicks);

// The same pages built as one bundle without Module Federation (bench/monolith/), served by a
// second product whose host files are that build: the federated build's cost, side by side.
if (values.monolith) {
  const built = spawnSync(
    'npx',
    ['webpack', '--config', path.join(root, 'bench', 'monolith', 'webpack.config.cjs')],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (built.status !== 0) throw new Error('the monolith build failed');
  const monolith = await startProduct({
    HOST_DIST_DIR: path.join(root, 'bench', 'out', 'monolith'),
  });
  const { browserCookies } = await signInDemo(monolith);
  const compared = [];
  for (const scenario of scenarios) {
    const row = { page: scenario.name };
    for (const [build, url, session] of [
      ['federated', base, cookies],
      ['monolith', monolith, browserCookies],
    ]) {
      const measured = await load(scenario.pathname, {
        ...scenario,
        cookies: scenario.cookies ? session : undefined,
        url,
      });
      row[`${build}: files`] = measured.files.length;
      row[`${build}: over the wire`] = sum(measured.files, 'wire');
    }
    row.ratio = (row['federated: over the wire'] / row['monolith: over the wire']).toFixed(2);
    for (const key of ['federated: over the wire', 'monolith: over the wire'])
      row[key] = kb(row[key]);
    compared.push(row);
  }
  console.log('\nModule Federation against one bundle of the same pages (as the browser asks):\n');
  console.table(compared);
}

await browser.close();
process.exit(0);
