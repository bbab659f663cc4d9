import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { solidPng } from '../../server/test/providers/fake-image-servers';
import { startFakeVideos, type FakeVideos } from '../../server/test/providers/fake-video-servers';
import { runFfmpeg } from '../../server/src/video/engine/ffmpeg';
import {
  api,
  createUserOn,
  grantQuotaOn,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { startPlatform, type StartedPlatform } from '../support/start-platform';

/**
 * An OpenAI-compatible images API that is down for the comic clip's pictures (every one of its
 * prompts answers 503 with the API's error body, as a real provider does when it is
 * overloaded) and draws the anime short's; and a video service speaking the OpenAI videos
 * protocol (server/test/providers/fake-video-servers.ts: each clip made from the shot's picture
 * with ffmpeg, a square crossing it) that blocks the anime short's third shot once.
 */
let provider: Server;
let videos: FakeVideos;
let platform: StartedPlatform;
let browser: Browser;
let asked = 0;
/** The comic clip's text: its prompts are the ones the images API refuses. */
const COMIC_TEXT = '夜里下起了雨。林舟撑伞走过石桥。桥头的灯忽明忽暗。';
const PICTURE = solidPng('rgb(40, 90, 200)', 90, 160).toString('base64');
let blockedOnce = true;

beforeAll(async () => {
  browser = await launchBrowser();
  provider = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const prompt = String(
        (JSON.parse(Buffer.concat(chunks).toString() || '{}') as { prompt?: unknown }).prompt,
      );
      const comic = ['下起了雨', '石桥', '忽明忽暗'].some((words) => prompt.includes(words));
      if (req.method === 'POST' && req.url === '/v1/images/generations' && comic) {
        asked += 1;
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: 'The engine is currently overloaded', type: 'server_error' },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ created: 0, data: [{ b64_json: PICTURE }] }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  videos = await startFakeVideos();
  videos.respond = ({ prompt }) => {
    if (prompt.includes('只剩一间') && blockedOnce) {
      blockedOnce = false;
      return {
        type: 'failed',
        code: 'moderation_blocked',
        message: 'Your request was blocked by our moderation system.',
      };
    }
    return { type: 'ok' };
  };
  platform = await startPlatform({
    IMAGE_BASE_URL: `http://127.0.0.1:${port}/v1`,
    IMAGE_MODEL: 'test-image',
    IMAGE_API_KEY: 'sk-test',
    IMAGE_TIMEOUT_MS: '5000',
    VIDEO_BASE_URL: videos.apiUrl,
    VIDEO_API_KEY: 'sk-test',
    VIDEO_POLL_MS: '200',
    VIDEO_TIMEOUT_MS: '60000',
  });
}, 15 * 60_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await new Promise((resolve) => provider?.close(resolve));
  await videos?.close();
});

/** Waits for a video task through the API; its failure or a hang fails the test. */
async function madeVideo(page: Page, taskId: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const result = await api<{ state: string; error: string | null }>(
      page,
      `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
    );
    if (result.state === 'succeeded') return;
    if (result.state === 'failed') throw new Error(`the video failed: ${result.error ?? ''}`);
    if (Date.now() > deadline) throw new Error('the video was not made in time');
    await page.waitForTimeout(250);
  }
}

/** Rendering on 2 cores shared with other work: a limit against hangs, not a target. */
const RENDER_LIMIT_MS = 5 * 60_000;

describe('the quality report (issue 17)', () => {
  it(
    'shows the shots that fell back to the local frame on the result page, with a link to redraw them, and 需检查 on the work’s card',
    async () => {
      const { username, password } = await createUserOn(platform, { templateIds: '0,1,2,3,4,5,6' });
      await grantQuotaOn(platform, username, 'comics', { gen: 1 });
      const { context, page } = await newPage(browser, undefined, platform.url);
      await signIn(page, username, password);

      // A short comic clip made through the API: its pictures are asked of the broken provider.
      const title = `报告${username}`;
      const { workId } = await api<{ workId: number }>(page, '/api/video/save_text', {
        type: 0,
        title,
        text: COMIC_TEXT,
      });
      const { taskId } = await api<{ taskId: string }>(page, '/api/video/gen_video', { workId });
      await madeVideo(page, taskId, RENDER_LIMIT_MS);
      expect(asked).toBeGreaterThan(0);

      // The result page: the report's figures, and the fallback as a warning with its link.
      await page.goto(`/video/short/${encodeURIComponent(taskId)}`);
      const card = page.locator('.ant-card').filter({ hasText: '质量报告' });
      await card.getByText('LUFS（目标 -16 LUFS）').waitFor();
      const warning = card.getByRole('alert').filter({ hasText: '使用了本地画面' });
      await warning.waitFor();
      expect(await warning.textContent()).toMatch(/第 1(、\d+)* 镜使用了本地画面（图像服务出错）/);
      await screenshot(page, 'quality-report');
      await warning.getByRole('link', { name: '重新生成画面' }).click();
      await page.waitForURL((url) => url.pathname === `/video/promptWord/${workId}`);

      // My works: the card says to look.
      await page.goto('/work/comics?tab=works');
      await page.getByLabel(`${title} 需检查`).waitFor();
      await context.close();
    },
    RENDER_LIMIT_MS + 60_000,
  );

  it(
    'shows an anime short whose shots move, and makes its one failed clip again from the result page',
    async () => {
      const { username, password } = await createUserOn(platform, { templateIds: '0,1,2,3,4,5,6' });
      await grantQuotaOn(platform, username, 'comics', { gen: 1 });
      const { context, page } = await newPage(browser, undefined, platform.url);
      await signIn(page, username, password);
      const { workId } = await api<{ workId: number }>(page, '/api/video/save_text', {
        type: 11,
        title: `动态${username}`,
        text: '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。',
      });
      const { taskId } = await api<{ taskId: string }>(page, '/api/video/gen_video', { workId });
      await madeVideo(page, taskId, RENDER_LIMIT_MS);
      expect(videos.jobs.length).toBe(3);

      // The first shot is a clip: two of its frames differ (its square crossed the frame).
      const result = await api<{ videoUrl: string }>(
        page,
        `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
      );
      const work = await api<{ shots: Array<{ durationMs: number; clipUrl?: string }> }>(
        page,
        `/api/video/work_info?workId=${workId}`,
      );
      expect(work.shots[0]?.clipUrl).toMatch(/\/clips\/shot-000\.mp4$/);
      const dir = mkdtempSync(path.join(tmpdir(), 'kol-e2e-motion-'));
      try {
        const video = path.join(dir, 'video.mp4');
        const download = await page.request.get(result.videoUrl);
        writeFileSync(video, await download.body());
        const frame = async (seconds: number, name: string) => {
          const out = path.join(dir, name);
          await runFfmpeg([
            ...['-ss', seconds.toFixed(2), '-i', video, '-frames:v', '1'],
            ...['-vf', 'crop=iw:ih*0.6:0:0,scale=27:29,format=gray', '-f', 'rawvideo', out],
          ]);
          return (await import('node:fs/promises')).readFile(out);
        };
        const firstShotS = (work.shots[0]?.durationMs ?? 2000) / 1000;
        const a = await frame(0.1, 'a.gray');
        const b = await frame(Math.max(0.5, firstShotS - 0.3), 'b.gray');
        const distance = a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] ?? 0)), 0) / a.length;
        expect(distance).toBeGreaterThan(2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      // The result page names the still shot and makes its clip again, once.
      await page.goto(`/video/short/${encodeURIComponent(taskId)}`);
      const card = page.locator('.ant-card').filter({ hasText: '质量报告' });
      const warning = card.getByRole('alert').filter({ hasText: '动态镜头没有生成成功' });
      await warning.waitFor();
      expect(await warning.textContent()).toContain('第 3 镜');
      await screenshot(page, 'quality-report-motion');
      await warning.getByRole('button', { name: '重新生成动态镜头' }).dblclick();
      await card.getByText('动态镜头已重新生成，重新生成视频后用于成片').waitFor();
      expect(videos.jobs.length).toBe(4);
      const after = await api<{ shots: Array<{ clipUrl?: string; clipError?: string }> }>(
        page,
        `/api/video/work_info?workId=${workId}`,
      );
      expect(after.shots[2]?.clipUrl).toMatch(/\/clip\.mp4$/);
      expect(after.shots[2]?.clipError).toBeUndefined();
      await context.close();
    },
    RENDER_LIMIT_MS + 60_000,
  );
});
