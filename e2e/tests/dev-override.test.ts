import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signIn, userPageTitle } from '../support/platform';
import { freePort } from '../support/start-platform';

const REPO = path.resolve(__dirname, '..', '..');
const USER_DIR = path.join(REPO, 'mfe-user');
const TITLE = '个人中心';
const DEV_TITLE = '个人中心（开发版）';

let browser: Browser;
let devServer: ChildProcess | null = null;
let devOutput = '';
let workDir = '';

/**
 * The user-centre remote's dev server as `pnpm --filter @kol/mfe-user dev` starts it (its
 * webpack.config.cjs, `webpack serve --mode development`), with the developer's edit made by a
 * loader on the way in (the page title changed), so the test leaves the sources alone. Another
 * port than the documented 3104, which a developer's own server may hold.
 */
function startDevServer(port: number): ChildProcess {
  workDir = mkdtempSync(path.join(tmpdir(), 'kol-dev-override-'));
  const loader = path.join(workDir, 'edit-loader.cjs');
  writeFileSync(
    loader,
    `module.exports = (source) => source.replaceAll(${JSON.stringify(TITLE)}, ${JSON.stringify(DEV_TITLE)});\n`,
  );
  const config = path.join(workDir, 'webpack.config.cjs');
  writeFileSync(
    config,
    `const base = require(${JSON.stringify(path.join(USER_DIR, 'webpack.config.cjs'))});
module.exports = (env, argv) => {
  const config = base(env, argv);
  config.module.rules.push({
    test: /\\.tsx?$/,
    include: ${JSON.stringify(path.join(USER_DIR, 'src'))},
    enforce: 'pre',
    use: ${JSON.stringify(loader)},
  });
  // The edited build stays out of the developer's webpack cache.
  config.cache = false;
  return config;
};
`,
  );
  const cli = require.resolve('webpack-cli/bin/cli.js', { paths: [REPO] });
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--mode', 'development', '--config', config, '--port', String(port)],
    { cwd: USER_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (devOutput += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (devOutput += chunk.toString()));
  return child;
}

/** The dev server answers its manifest once the first compilation is done. */
async function waitForManifest(url: string): Promise<void> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (devServer?.exitCode != null || Date.now() > deadline) {
      throw new Error(`the dev server did not serve ${url}:\n${devOutput.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  devServer?.kill();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('developing one remote against the running platform', () => {
  it('loads the remote from a local dev server in the browser that asks for it, and only there', async () => {
    const port = await freePort();
    devServer = startDevServer(port);
    const manifestUrl = `http://localhost:${port}/mf-manifest.json`;
    await waitForManifest(manifestUrl);

    // The developer's browser: the override set in its local storage.
    const developer = await newPage(browser);
    const devRequests: string[] = [];
    developer.page.on('request', (request) => {
      if (request.url().startsWith(`http://localhost:${port}/`)) devRequests.push(request.url());
    });
    await signIn(developer.page, 'demo', 'demo123456');
    await developer.page.evaluate(
      (value) => localStorage.setItem('KOL_REMOTE_OVERRIDES', value),
      JSON.stringify({ mfe_user: manifestUrl }),
    );
    expect(await userPageTitle(developer.page)).toBe(DEV_TITLE);
    expect(devRequests).toContain(manifestUrl);
    const badge = developer.page.getByTestId('dev-override-badge');
    await badge.waitFor();
    expect(await badge.textContent()).toBe(`开发模式：mfe_user 来自 localhost:${port}`);

    // Anyone else (another browser context: its own storage) gets the registry's release.
    const other = await newPage(browser);
    const otherDevRequests: string[] = [];
    other.page.on('request', (request) => {
      if (request.url().includes(`:${port}/`)) otherDevRequests.push(request.url());
    });
    await signIn(other.page, 'demo', 'demo123456');
    expect(await userPageTitle(other.page)).toBe(TITLE);
    expect(await other.page.getByTestId('dev-override-badge').count()).toBe(0);
    expect(otherDevRequests).toEqual([]);

    // The badge's cross clears the override: the registry's release again after the reload.
    await Promise.all([
      developer.page.waitForEvent('load'),
      developer.page.getByRole('button', { name: '清除开发模式覆盖' }).click(),
    ]);
    expect(await developer.page.evaluate(() => localStorage.getItem('KOL_REMOTE_OVERRIDES'))).toBe(
      null,
    );
    expect(await userPageTitle(developer.page)).toBe(TITLE);
    expect(await developer.page.getByTestId('dev-override-badge').count()).toBe(0);

    await developer.context.close();
    await other.context.close();
  });
});
