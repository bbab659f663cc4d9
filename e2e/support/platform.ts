import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const REPO = path.resolve(__dirname, '..', '..');
export const ARTIFACTS = path.join(REPO, 'e2e', 'artifacts');

export function platformUrl(): string {
  const url = process.env.KOL_E2E_URL;
  if (!url) throw new Error('KOL_E2E_URL is not set: run the tests through jest (global-setup.ts)');
  return url;
}

/** Debian's Chromium, with the flags this closed network needs (no background traffic). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(
  browser: Browser,
  viewport = DESKTOP,
  baseURL = platformUrl(),
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', baseURL });
  // A limit against hangs, not a speed target: with the apps' tests running beside the e2e
  // tests on 2 cores, a search or a save that takes 6 s alone was seen to take over 30 s.
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/**
 * A picture of the whole page, kept in `e2e/artifacts/`. Not with `fullPage: true`: Chromium's
 * capture beyond the viewport hands the page a 1×1 window for a moment (microsoft/playwright
 * #30149), which sends the host's mobile redirect to `/m` and back and remounts the page, losing
 * what was typed. The viewport grows to the page's height instead, at the same width, and
 * returns to its size after.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const grow = viewport !== null && height > viewport.height;
  if (grow) await page.setViewportSize({ width: viewport.width, height });
  try {
    // Animations at their end: a dialog that is opening is shown open.
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), animations: 'disabled' });
  } finally {
    if (grow) await page.setViewportSize(viewport);
  }
}

const run = promisify(execFile);

/** Runs the ops CLI (`pnpm kol …`) against the platform under test (or another one). */
export async function kol(...args: string[]): Promise<string> {
  return kolOn({ url: platformUrl(), dataDir: process.env.KOL_E2E_DATA_DIR ?? '' }, ...args);
}

export async function kolOn(
  platform: { url: string; dataDir: string },
  ...args: string[]
): Promise<string> {
  const token = readFileSync(path.join(platform.dataDir, 'admin-token'), 'utf8').trim();
  const { stdout } = await run('pnpm', ['--silent', 'kol', ...args, '--server', platform.url], {
    cwd: REPO,
    env: { ...process.env, KOL_ADMIN_TOKEN: token },
  });
  return stdout;
}

let serial = 0;

/**
 * A call of the admin API with the platform's admin token, as the ops CLI sends it (bearer token
 * and actor): the envelope's data, or an error naming the call and the server's message.
 */
async function adminCall<T>(
  platform: { url: string; dataDir: string },
  endpoint: string,
  body: object,
): Promise<T> {
  const token = readFileSync(path.join(platform.dataDir, 'admin-token'), 'utf8').trim();
  const response = await fetch(`${platform.url}${endpoint}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-kol-actor': 'e2e',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; msg?: string; data: T };
  if (envelope.code !== 0)
    throw new Error(`${endpoint} answered ${envelope.code}: ${envelope.msg}`);
  return envelope.data;
}

/**
 * A user made through the admin API, with a posting account so the prompt stays away: the
 * endpoints `pnpm kol user create` and `user set --home-page-url` call (server/src/cli), without
 * starting the CLI twice per user (about a second on a busy machine; the suite makes some forty
 * users). The shell test's template gating makes its user with the CLI itself.
 */
export async function createUserOn(
  platform: { url: string; dataDir: string },
  options: { templateIds: string; functionalLevel?: number; homePageUrl?: boolean },
): Promise<{ username: string; password: string }> {
  const username = uniqueUsername('e2e');
  const password = 'e2e-password-1';
  await adminCall(platform, '/api/admin/users/create', {
    username,
    password,
    templateIds: options.templateIds.split(',').map(Number),
    functionalLevel: options.functionalLevel ?? 1,
  });
  if (options.homePageUrl !== false) {
    await adminCall(platform, '/api/admin/users/update', {
      username,
      homePageUrl: `https://example.com/${username}`,
    });
  }
  return { username, password };
}

/**
 * Counts of a video type added to a user (`pnpm kol quota grant U --type T --gen N --merge M`,
 * through the endpoint it calls, as createUserOn does).
 */
export async function grantQuotaOn(
  platform: { url: string; dataDir: string },
  username: string,
  type: string,
  counts: { gen?: number; merge?: number },
): Promise<void> {
  await adminCall(platform, '/api/admin/quotas/grant', { username, type, ...counts });
}

export function grantQuota(
  username: string,
  type: string,
  counts: { gen?: number; merge?: number },
): Promise<void> {
  return grantQuotaOn(
    { url: platformUrl(), dataDir: process.env.KOL_E2E_DATA_DIR ?? '' },
    username,
    type,
    counts,
  );
}

export function createUser(options: {
  templateIds: string;
  functionalLevel?: number;
  homePageUrl?: boolean;
}) {
  return createUserOn({ url: platformUrl(), dataDir: process.env.KOL_E2E_DATA_DIR ?? '' }, options);
}

/**
 * A username no earlier run used, so tests can create users freely. Digits after the prefix:
 * tests put usernames into titles, and base-36 letters once spelled 「VX」, a word the server
 * refuses in a video's text (gen_video answered 400 in a CI run).
 */
export function uniqueUsername(prefix: string): string {
  serial += 1;
  return `${prefix}${Date.now()}${serial}`;
}

/**
 * An API call with the browser's session cookie (GET, or POST with a JSON body and the client
 * header the server asks of every change, as the SDK sends it): the envelope's data, or an
 * error naming the call and the server's message.
 */
export async function api<T>(page: Page, url: string, body?: object): Promise<T> {
  const response =
    body === undefined
      ? await page.request.get(url)
      : await page.request.post(url, { data: body, headers: { platform: 'pc' } });
  if (response.status() !== 200) {
    // The server's message names the refusal: without it a failure says little.
    throw new Error(`${url} answered HTTP ${response.status()}: ${await response.text()}`);
  }
  const envelope = (await response.json()) as { code: number; msg?: string; data: T };
  if (envelope.code !== 0)
    throw new Error(`${url} answered ${envelope.code}: ${envelope.msg ?? ''}`);
  return envelope.data;
}

/** The heading of the user centre (`/user`), after loading it: tells which build of it runs. */
export async function userPageTitle(page: Page): Promise<string> {
  await page.goto('/user');
  const heading = page.locator('main h1').first();
  await heading.waitFor();
  return (await heading.textContent()) ?? '';
}
