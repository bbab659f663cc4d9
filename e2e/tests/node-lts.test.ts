import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { NODE_LTS, nodeLts } from '../support/node-lts';
import {
  api,
  createUserOn,
  grantQuotaOn,
  launchBrowser,
  newPage,
  signIn,
} from '../support/platform';
import { startPlatform, type StartedPlatform } from '../support/start-platform';
import { watchProduction } from '../support/waits';

/**
 * The product on Node 24 LTS (issue 32), beside the whole suite on this machine's Node: a
 * platform of its own started by the README's start command under that Node (the builds are
 * the ones the other tests use), then a creator's short pass: sign in, a remote's page, one
 * short video made and downloaded.
 */
let platform: StartedPlatform;
let browser: Browser;
let node = '';

/** A process and its descendants, each with its executable (Linux's /proc). */
function processTree(root: number): { pid: number; exe: string; command: string }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the command name (which may hold spaces): state, parent, …
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  }
  const found: { pid: number; exe: string; command: string }[] = [];
  for (const pid of tree) {
    try {
      found.push({
        pid,
        exe: realpathSync(readlinkSync(`/proc/${pid}/exe`)),
        command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '),
      });
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

describe(`the product on Node ${NODE_LTS}`, () => {
  beforeAll(async () => {
    node = await nodeLts();
    platform = await startPlatform({}, { node });
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    if (platform) rmSync(platform.dataDir, { recursive: true, force: true });
  }, 120_000);

  it('runs every Node process of the platform on it', () => {
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${NODE_LTS}`);
    // The start script, pnpm (a native binary in pnpm 12), the shell it runs the script in, the
    // server (its bundle, scripts/server.mjs): the start script and the server run on Node 24,
    // nothing on this Node.
    const processes = processTree(platform.child.pid ?? 0);
    const lts = realpathSync(node);
    const server = processes.filter(
      (found) =>
        found.command.includes('scripts/server.mjs server') && !/\/(sh|bash|dash)$/.test(found.exe),
    );
    expect(server.length).toBeGreaterThan(0);
    expect(processes[0]?.exe).toBe(lts);
    expect(server.map((found) => found.exe)).toEqual(Array(server.length).fill(lts));
    const thisNode = realpathSync(process.execPath);
    expect(processes.filter((found) => found.exe === thisNode)).toEqual([]);
  });

  it('signs in, shows a remote page, and makes and serves a short video', async () => {
    const { username, password } = await createUserOn(platform, { templateIds: '0,1,2,3,4,5,6' });
    await grantQuotaOn(platform, username, 'comics', { gen: 1 });
    const { context, page } = await newPage(browser, undefined, platform.url);
    try {
      await signIn(page, username, password);
      await page.goto('/video');
      await expect(page.locator('main h1').first().textContent()).resolves.toBe('视频合成');

      const title = `长期支持 ${username}`;
      const { workId } = await api<{ workId: number }>(page, '/api/video/save_text', {
        type: 0,
        title,
        text: '灯塔亮了。老人推开窗。海上起风了。',
      });
      const { taskId } = await api<{ taskId: string }>(page, '/api/video/gen_video', { workId });
      await page.goto(`/video/production?workId=${workId}`);
      const card = page.getByRole('group', { name: `生成任务 ${title}` });
      await card.waitFor();
      await watchProduction(page, card, 'node-lts-production');

      const result = await api<{ state: string; videoUrl: string }>(
        page,
        `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
      );
      expect(result.state).toBe('succeeded');
      const video = await page.request.get(result.videoUrl);
      expect(video.status()).toBe(200);
      expect(video.headers()['content-type']).toBe('video/mp4');
      expect((await video.body()).length).toBeGreaterThan(10_000);
    } finally {
      await context.close();
    }
  });
});
