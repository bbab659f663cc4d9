import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import {
  ARTIFACTS,
  api,
  createUser,
  grantQuota,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { RENDER_LIMIT_MS, confirmAndReach, watchProduction } from '../support/waits';
import { expectCleanPage } from '../support/audit';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(os.tmpdir(), 'kol-e2e-convert-'));
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Rendering a video on 2 cores shared with other work: a limit against hangs, not a target. */

/** The source clip's subtitle track: what the page must read into the script. */
const SUBTITLES = ['小猫在窗边晒太阳。', '它慢慢睡着了。'];

/** The server's own ffmpeg (FFMPEG_PATH, else the one its package installs), as it finds it. */
const FFMPEG =
  process.env.FFMPEG_PATH ??
  (
    createRequire(path.join(path.dirname(path.dirname(ARTIFACTS)), 'server', 'package.json'))(
      '@ffmpeg-installer/ffmpeg',
    ) as { path: string }
  ).path;

const ffmpeg = (...args: string[]) =>
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

/**
 * A 4-second 16:9 clip with sound and an embedded mov_text subtitle track, made here. The test
 * pattern is asymmetric left to right, so its mirror is told apart from it.
 */
function sourceClip(file: string): Buffer {
  const srt = `${file}.srt`;
  writeFileSync(
    srt,
    `1\n00:00:00,200 --> 00:00:01,800\n${SUBTITLES[0]}\n\n2\n00:00:02,000 --> 00:00:03,800\n${SUBTITLES[1]}\n`,
  );
  ffmpeg(
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30:duration=4'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=500:duration=4'],
    ...['-i', srt, '-map', '0:v', '-map', '1:a', '-map', '2:s'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-c:s', 'mov_text', file],
  );
  return readFileSync(file);
}

const THUMB = { width: 64, height: 36 };

/** The first frame of a video as a small grey picture (one byte a pixel), with extra filters. */
function firstFrame(file: string, filters = ''): Buffer {
  return ffmpeg(
    ...['-i', file, '-frames:v', '1'],
    ...['-vf', `scale=${THUMB.width}:${THUMB.height}${filters},format=gray`],
    ...['-f', 'rawvideo', '-'],
  );
}

/** Mean absolute difference of two grey pictures over their top 60 % (the captions are below). */
function difference(a: Buffer, b: Buffer): number {
  const rows = Math.floor(THUMB.height * 0.6);
  let sum = 0;
  for (let i = 0; i < rows * THUMB.width; i += 1) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / (rows * THUMB.width);
}

describe('the reverse video (issue 16)', () => {
  it(
    'makes a reverse video from an uploaded clip with a subtitle track and the mirror preset: the first frame is the source’s, mirrored',
    async () => {
      const { username, password } = await createUser({ templateIds: '0,1,5', functionalLevel: 1 });
      await grantQuota(username, 'convert', { gen: 2 });
      const { context, page } = await newPage(browser);
      await signIn(page, username, password);
      const name = `反推${username}`;
      const source = path.join(dir, 'source.mp4');
      const bytes = sourceClip(source);

      // Step 1: the limits; a wrong file refused with its reason; then the clip, previewed.
      await page.goto('/convertConfig');
      await page.getByText('MP4、MOV、WebM、MKV 视频，不超过 200 MB，时长不超过 10 分钟').waitFor();
      await page.getByLabel('选择原视频').setInputFiles({
        name: '配音.mp3',
        mimeType: 'audio/mpeg',
        buffer: Buffer.from('ID3'),
      });
      await page
        .getByRole('alert')
        .filter({ hasText: '「配音.mp3」不是支持的视频：请上传 MP4、MOV、WebM 或 MKV 视频' })
        .first()
        .waitFor();
      await page.getByLabel('选择原视频').setInputFiles({
        name: `${name}.mp4`,
        mimeType: 'video/mp4',
        buffer: bytes,
      });
      const preview = page.getByLabel('原视频预览');
      await preview.waitFor();
      await page.waitForFunction(
        () =>
          (document.querySelector('video[aria-label="原视频预览"]') as HTMLVideoElement)
            ?.readyState >= 1,
      );
      await screenshot(page, 'convert-source');
      await page.getByRole('button', { name: '下一步：文案与配音' }).click();
      await page.waitForURL((url) => url.searchParams.get('step') === 'script');

      // Step 2: the script read from the subtitle track; a reload keeps the step and the script.
      const script = page.getByLabel('反推文案');
      await page.getByText('已从视频的字幕轨提取脚本').waitFor();
      expect(await script.inputValue()).toBe(SUBTITLES.join('\n'));
      await page.reload();
      await page.getByText('已从视频的字幕轨提取脚本').waitFor();
      expect(await page.getByLabel('反推文案').inputValue()).toBe(SUBTITLES.join('\n'));
      await screenshot(page, 'convert-script');
      // antd's radio buttons hide their input: the label is what a person clicks.
      await page.getByText('横屏 16:9', { exact: true }).click();
      await page.getByRole('button', { name: '下一步：去重与生成' }).click();
      await page.waitForURL((url) => url.searchParams.get('step') === 'render');
      // The script done, the work is made and in the address: another tab opens it again.
      const savedId = new URL(page.url()).searchParams.get('workId');
      expect(savedId).toMatch(/^\d+$/);
      const other = await context.newPage();
      await other.goto(`/convertConfig?step=script&workId=${savedId ?? ''}`);
      await other.getByLabel('反推文案').waitFor();
      expect(await other.getByLabel('反推文案').inputValue()).toBe(SUBTITLES.join('\n'));
      await other.close();

      // Step 3: the mirror preset, then one count, asked first.
      await page.getByText('镜像（左右翻转）', { exact: true }).click();
      expect(await page.getByRole('checkbox', { name: '镜像' }).isChecked()).toBe(true);
      await screenshot(page, 'convert-presets');
      await page.getByRole('button', { name: '生成视频（剩余 2 次）' }).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '将消耗 1 次「反推视频」' });
      await dialog.getByText('当前剩余 2 次').waitFor();
      await confirmAndReach(
        page,
        dialog,
        (url) => url.pathname === '/video/production',
        'convert-generate-stuck',
      );
      const workId = Number(new URL(page.url()).searchParams.get('workId'));
      expect(workId).toBeGreaterThan(0);
      const task = page.getByRole('group', { name: `生成任务 ${name}` });
      await task.waitFor();
      await watchProduction(page, task, 'convert-production');
      await screenshot(page, 'convert-production-done');

      // The finished video: playable, as long as the server says.
      await task.getByRole('button', { name: `查看视频 ${name}` }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/video/short/'));
      const taskId = decodeURIComponent(new URL(page.url()).pathname.slice('/video/short/'.length));
      const result = await api<{
        workId: number;
        state: string;
        videoUrl: string;
        durationMs: number;
      }>(page, `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`);
      expect(result).toMatchObject({ workId, state: 'succeeded' });
      const player = page.getByLabel('视频播放器');
      const duration = await player.evaluate(
        (video: HTMLVideoElement) =>
          new Promise<number>((resolve, reject) => {
            const done = () => resolve(video.duration);
            if (video.readyState >= 1) done();
            video.addEventListener('loadedmetadata', done);
            video.addEventListener('error', () =>
              reject(new Error(`the video did not load: ${video.error?.message ?? ''}`)),
            );
          }),
      );
      expect(Math.abs(duration - result.durationMs / 1000)).toBeLessThan(0.5);
      const played = await player.evaluate(
        (video: HTMLVideoElement) =>
          new Promise<number>((resolve, reject) => {
            video.muted = true;
            video.addEventListener('timeupdate', () => {
              if (video.currentTime > 0.3) resolve(video.currentTime);
            });
            video.play().catch(reject);
          }),
      );
      expect(played).toBeGreaterThan(0.3);
      await screenshot(page, 'convert-short');

      // The first frame is the source's first frame mirrored, not the source's as it was.
      const made = await page.request.get(result.videoUrl);
      expect(made.status()).toBe(200);
      const output = path.join(dir, 'result.mp4');
      writeFileSync(output, await made.body());
      const frame = firstFrame(output);
      const mirrored = difference(frame, firstFrame(source, ',hflip'));
      const unmirrored = difference(frame, firstFrame(source));
      expect(mirrored).toBeLessThan(12);
      expect(mirrored * 3).toBeLessThan(unmirrored);

      // Edited in the video editor and merged again: one caption re-spoken, the footage kept
      // (issue 29: it used to become locally drawn frames).
      await grantQuota(username, 'convert', { merge: 1 });
      await page.goto(`/work/cut/${workId}`);
      await page.getByRole('group', { name: '片段 1' }).click();
      await page.getByLabel('片段文案').fill('小猫在窗台上伸了个懒腰。');
      await page.getByTestId('save-state').getByText('已保存').waitFor();
      await page.getByRole('button', { name: '重新生成此片段' }).click();
      await page.getByRole('button', { name: '重新生成此片段' }).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: '重新合成' }).click();
      await page.getByText('将消耗 1 次').waitFor();
      await page.getByRole('button', { name: '确认合成' }).click();
      await page.getByText(/^新视频已生成（时长/).waitFor({ timeout: RENDER_LIMIT_MS });
      await screenshot(page, 'convert-cut-remerged');
      await expectCleanPage(page, 'convert-cut-remerged');
      const merged = await api<{ videoUrl: string }>(
        page,
        `/api/video/get_work_result?workId=${workId}`,
      );
      expect(merged.videoUrl).not.toBe(result.videoUrl);
      const remade = path.join(dir, 'remerged.mp4');
      writeFileSync(remade, await (await page.request.get(merged.videoUrl)).body());
      const again = firstFrame(remade);
      const footage = difference(again, firstFrame(source, ',hflip'));
      expect(footage).toBeLessThan(12);
      expect(footage * 3).toBeLessThan(difference(again, firstFrame(source)));

      // 视频去重 of the same reverse video, in the layout and on its own route outside it:
      // audited with its settings, its before / after preview and its result.
      for (const route of [`/video/cutDuplicates/${workId}`, `/video/duplicatesEdit/${workId}`]) {
        await page.goto(route);
        await page.getByText('调整去重设置，对比去重前后的画面').waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `convert-${route.split('/')[2]}`);
        await expectCleanPage(page, route);
      }
      await context.close();
    },
    RENDER_LIMIT_MS + 3 * 60_000,
  );
});
