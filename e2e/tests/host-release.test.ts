import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signIn, userPageTitle } from '../support/platform';
import {
  HOST_BUILD,
  kolChange,
  removeVariantBuilds,
  USER_TITLE,
  variantBuild,
} from '../support/releases';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  removeVariantBuilds();
});

const TITLE = 'KOL Studio';
const NEW_TITLE = 'KOL Studio 新版';

describe('the host shell, released like a remote', () => {
  it('serves a new host release at the next load and the old one after a rollback, nothing rebuilt', async () => {
    const builtPage = path.join(HOST_BUILD, 'index.html');
    const built = { text: readFileSync(builtPage, 'utf8'), mtime: statSync(builtPage).mtimeMs };
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    expect(await page.title()).toBe(TITLE);

    const released = await kolChange(
      'release',
      'host_shell',
      '--dir',
      variantBuild(HOST_BUILD, `<title>${TITLE}</title>`, `<title>${NEW_TITLE}</title>`),
      '--note',
      'e2e host title',
    );
    expect(released.action).toBe('release');
    // The next load is the new host, and it works: sign in and open a remote's page.
    await page.goto('/login');
    expect(await page.title()).toBe(NEW_TITLE);
    await signIn(page, 'demo', 'demo123456');
    expect(await userPageTitle(page)).toContain(USER_TITLE);
    // The page's name before the new host's title (host-shell/src/layout/page-title.tsx).
    expect(await page.title()).toBe(`${USER_TITLE} - ${NEW_TITLE}`);

    // A rollback is a pointer change: the build before, at the next load.
    const back = await kolChange('rollback', 'host_shell');
    expect(back.from).toBe(released.to);
    expect(back.to).toBe(released.from);
    await page.goto('/');
    expect(await page.title()).toBe(TITLE);
    expect(await userPageTitle(page)).toContain(USER_TITLE);

    // Nothing was rebuilt: the host's build folder is as the start command left it.
    expect(readFileSync(builtPage, 'utf8')).toBe(built.text);
    expect(statSync(builtPage).mtimeMs).toBe(built.mtime);
    await context.close();
  });
});
