import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  api,
  createUser,
  grantQuota,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { RENDER_LIMIT_MS, confirmAndReach, until, watchProduction } from '../support/waits';
import { expectCleanPage } from '../support/audit';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Rendering a video on 2 cores shared with other work: a limit against hangs, not a target. */

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A phone photo stand-in, made here: a portrait PNG of one colour with a lighter block in the
 * middle (so two photos differ in every frame that shows them).
 */
function photo(background: [number, number, number], block: [number, number, number]): Buffer {
  const width = 360;
  const height = 640;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const inside = x > 90 && x < 270 && y > 200 && y < 440;
      const [r, g, b] = inside ? block : background;
      row.writeUInt8(r, 1 + x * 3);
      row.writeUInt8(g, 2 + x * 3);
      row.writeUInt8(b, 3 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bits per channel
  header.writeUInt8(2, 9); // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * From 确认生成 to the finished video: followed on /video/production, then opened on its page,
 * where the player's length must be the server's result and it must play.
 */
async function confirmAndWatch(page: Page, title: string, name: string): Promise<number> {
  const dialog = page.locator('.ant-modal').filter({ hasText: '将消耗 1 次' });
  await dialog.getByText('当前剩余 1 次').waitFor();
  await screenshot(page, `${name}-generate-confirm`);
  await confirmAndReach(
    page,
    dialog,
    (url) => url.pathname === '/video/production' && url.searchParams.has('workId'),
    `${name}-generate-stuck`,
  );
  const workId = Number(new URL(page.url()).searchParams.get('workId'));
  const task = page.getByRole('group', { name: `生成任务 ${title}` });
  await task.waitFor();
  await watchProduction(page, task, `${name}-production`);
  await screenshot(page, `${name}-production-done`);

  await task.getByRole('button', { name: `查看视频 ${title}` }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/video/short/'));
  const taskId = decodeURIComponent(new URL(page.url()).pathname.slice('/video/short/'.length));
  const result = await api<{ workId: number; state: string; durationMs: number }>(
    page,
    `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
  );
  expect(result).toMatchObject({ workId, state: 'succeeded' });
  expect(result.durationMs).toBeGreaterThan(1000);
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
  await screenshot(page, `${name}-short`);
  return workId;
}

describe('the scrolling and marketing videos (issue 16)', () => {
  it(
    'makes a scrolling video: the text over a background at the narration’s pace, no merge step',
    async () => {
      const { username, password } = await createUser({ templateIds: '0,4' });
      await grantQuota(username, 'scroll', { gen: 1 });
      const { context, page } = await newPage(browser);
      await signIn(page, username, password);

      await page.goto('/video/scroll');
      await page.getByText(/滚屏视频没有合成步骤/).waitFor();
      const text = `湖边的清晨\n清晨的风吹过湖面。岸边的柳树轻轻摇晃。\n远处传来几声鸟鸣，一天就这样安静地开始了。`;
      await page.getByLabel('滚屏文案').fill(text);
      await page.getByLabel('深海波光').check();
      // The backgrounds are shown by their covers, served by the server.
      await until('the background covers shown', async () =>
        page
          .locator('img[src*="deep-sea"]')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      );
      await page
        .getByTestId('scroll-pace')
        .getByText(/按 1\.0× 语速约/)
        .waitFor();
      await screenshot(page, 'scroll-config');
      // A reload keeps what was typed.
      await page.reload();
      await page.getByLabel('滚屏文案').waitFor();
      expect(await page.getByLabel('滚屏文案').inputValue()).toBe(text);
      expect(await page.getByLabel('深海波光').isChecked()).toBe(true);

      await page.getByRole('button', { name: '生成视频（剩余 1 次）' }).click();
      // The work is named after the text's first line.
      await confirmAndWatch(page, '湖边的清晨', 'scroll');
      await page.getByText('滚屏视频不能在编辑器中修改').waitFor();
      await context.close();
    },
    RENDER_LIMIT_MS + 3 * 60_000,
  );

  it(
    'makes a marketing video from a template with two pictures, ending on the call to action',
    async () => {
      const { username, password } = await createUser({ templateIds: '0,6' });
      await grantQuota(username, 'market', { gen: 1 });
      const { context, page } = await newPage(browser);
      await signIn(page, username, password);
      const product = `云朵枕头${username.slice(-4)}`;

      await page.goto('/video/market');
      await page.getByRole('img', { name: '好物种草的封面' }).waitFor();
      await page.getByLabel('好物种草', { exact: true }).check();
      await screenshot(page, 'market-template');
      await page.getByRole('button', { name: '下一步：填写内容' }).click();
      await page.waitForURL((url) => url.pathname === '/video/market/content');
      await page.getByLabel('产品名称').fill(product);
      await page.getByLabel('核心卖点').fill('柔软透气，护颈支撑');
      await screenshot(page, 'market-content');
      await expectCleanPage(page, 'market-content');
      // A reload keeps the step and what was typed.
      await page.reload();
      await page.getByLabel('产品名称').waitFor();
      expect(await page.getByLabel('产品名称').inputValue()).toBe(product);
      await page.getByRole('button', { name: '下一步：图片' }).click();
      await page.waitForURL((url) => url.pathname === '/video/market/pictures');

      // A wrong kind is refused with its name; then two pictures, in order.
      await page.getByLabel('选择图片').setInputFiles({
        name: '介绍.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('云朵枕头'),
      });
      await page.getByText('「介绍.txt」无法上传：仅支持 JPEG、PNG、WebP 格式的图片').waitFor();
      await page.getByLabel('选择图片').setInputFiles([
        { name: '红.png', mimeType: 'image/png', buffer: photo([220, 50, 50], [250, 250, 250]) },
        { name: '绿.png', mimeType: 'image/png', buffer: photo([50, 190, 70], [30, 30, 30]) },
      ]);
      await page.getByAltText('第 2 张图片').waitFor();
      await until('the second picture shown', async () =>
        page
          .getByAltText('第 2 张图片')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 360),
      );
      await screenshot(page, 'market-pictures');
      await expectCleanPage(page, 'market-pictures');
      await page.getByRole('button', { name: '下一步：配音与片尾' }).click();
      await page.waitForURL((url) => url.pathname === '/video/market/voice');
      await page.getByLabel('行动号召').fill('马上抢购');
      const card = page.getByRole('img', { name: '片尾预览' });
      await card.getByText('马上抢购').waitFor();
      await card.getByText(product).waitFor();
      await screenshot(page, 'market-voice');
      await expectCleanPage(page, 'market-voice');

      await page.getByRole('button', { name: '生成视频（剩余 1 次）' }).click();
      const workId = await confirmAndWatch(page, product, 'market');
      // The SRT ends with the call, said once.
      const result = await api<{ srtUrl: string }>(
        page,
        `/api/video/get_work_result?workId=${workId}`,
      );
      const srt = await (await page.request.get(result.srtUrl)).text();
      expect(srt).toContain(product);
      expect(srt.trim().endsWith('马上抢购！')).toBe(true);
      await context.close();
    },
    RENDER_LIMIT_MS + 3 * 60_000,
  );
});
