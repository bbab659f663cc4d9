import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { kol, launchBrowser, newPage, signIn, userPageTitle } from '../support/platform';
import {
  registryVersion,
  removeVariantBuilds,
  USER_BUILD,
  USER_TITLE as TITLE,
  variantBuild,
} from '../support/releases';

const activeVersion = () => registryVersion('mfe_user');
const userVariant = (title: string, options: { breakIt?: boolean } = {}) =>
  variantBuild(USER_BUILD, TITLE, title, options);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  removeVariantBuilds();
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
      userVariant('个人中心（新版）'),
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

    // A fresh good release, then a broken one (its page chunk throws): the host falls back to
    // the last known good, the most recent version no browser has reported failing. (The
    // original may have failure reports from other tests that simulate an outage.)
    await kol(
      'remote',
      'release',
      'mfe_user',
      '--dir',
      userVariant('个人中心（稳定版）'),
      '--note',
      'e2e good',
    );
    expect(await userPageTitle(page)).toBe('个人中心（稳定版）');
    await kol(
      'remote',
      'release',
      'mfe_user',
      '--dir',
      userVariant('个人中心（坏版本）', { breakIt: true }),
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
