import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import {
  kol,
  launchBrowser,
  newPage,
  platformUrl,
  signIn,
  userPageTitle,
} from '../support/platform';

const BUILD = path.resolve(__dirname, '..', '..', 'mfe-user', 'dist');
const TITLE = '个人中心';

let browser: Browser;
const made: string[] = [];

/**
 * A variant of the user-centre build, as another build of the team's would be: the page title
 * changed to `title`, and optionally the chunk that holds the page deleted (a broken release).
 */
function variantBuild(title: string, options: { breakPage?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kol-release-'));
  made.push(dir);
  cpSync(BUILD, dir, { recursive: true });
  const pageChunk = readdirSync(dir).find(
    (file) => file.endsWith('.js') && readFileSync(path.join(dir, file), 'utf8').includes(TITLE),
  );
  if (!pageChunk) throw new Error(`no chunk of ${BUILD} holds the title ${TITLE}`);
  const file = path.join(dir, pageChunk);
  const changed = readFileSync(file, 'utf8').replaceAll(TITLE, title);
  writeFileSync(file, changed);
  // The compressed copies a build writes beside each file, made again as the build would (the
  // server sends them to the browser, and refuses a release whose copies say something else).
  writeFileSync(`${file}.br`, brotliCompressSync(changed));
  writeFileSync(`${file}.gz`, gzipSync(changed));
  if (options.breakPage) for (const name of [file, `${file}.br`, `${file}.gz`]) rmSync(name);
  return dir;
}

async function activeVersion(): Promise<string> {
  const response = await fetch(`${platformUrl()}/api/platform/remotes`);
  const body = (await response.json()) as {
    data: { remotes: { name: string; version: string }[] };
  };
  const entry = body.data.remotes.find((remote) => remote.name === 'mfe_user');
  if (!entry) throw new Error('mfe_user is not in the registry');
  return entry.version;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('independent releases of a remote', () => {
  it('releases, rolls back, and falls back from a broken release to the last known good', async () => {
    const original = await activeVersion();
    const { context, page } = await newPage(browser);
    await signIn(page, 'demo', 'demo123456');
    expect(await userPageTitle(page)).toBe(TITLE);

    // Version 2 with a visible change: seen at the next load, nothing rebuilt or restarted.
    await kol(
      'remote',
      'release',
      'mfe_user',
      '--dir',
      variantBuild('个人中心（新版）'),
      '--note',
      'e2e v2',
    );
    const second = await activeVersion();
    expect(second).not.toBe(original);
    expect(await userPageTitle(page)).toBe('个人中心（新版）');

    // Roll back with the CLI: version 1 again.
    await kol('remote', 'rollback', 'mfe_user');
    expect(await activeVersion()).toBe(original);
    expect(await userPageTitle(page)).toBe(TITLE);

    // A fresh good release, then a broken one (its page chunk deleted): the host falls back to
    // the last known good, the most recent version no browser has reported failing. (The
    // original may have failure reports from other tests that simulate an outage.)
    await kol(
      'remote',
      'release',
      'mfe_user',
      '--dir',
      variantBuild('个人中心（稳定版）'),
      '--note',
      'e2e good',
    );
    expect(await userPageTitle(page)).toBe('个人中心（稳定版）');
    await kol(
      'remote',
      'release',
      'mfe_user',
      '--dir',
      variantBuild('个人中心（坏版本）', { breakPage: true }),
      '--note',
      'e2e broken',
    );
    const broken = await activeVersion();
    expect(await userPageTitle(page)).toBe('个人中心（稳定版）');
    expect(await page.getByText('页面加载失败').count()).toBe(0);

    // The browser reported the failure, and ops can list it.
    let failures = '';
    for (let tries = 0; tries < 20 && !failures.includes(broken); tries += 1) {
      failures = await kol('remote', 'failures', 'mfe_user');
      if (!failures.includes(broken)) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(failures).toContain(broken);

    // Leave the platform as the other tests expect it.
    await kol('remote', 'promote', 'mfe_user', original);
    expect(await activeVersion()).toBe(original);
    await context.close();
  });
});
