import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
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

/** The drama pipeline's stages as `/video/production` names them, in order ('排队' = queued). */
const STAGES = ['排队', '文案', '配音', '合成'];

/** Three lines by two characters over two scenes: the captions the SRT must hold. */
const SCRIPT: Array<Array<[speaker: string, text: string]>> = [
  [
    ['小明', '你好，好久不见。'],
    ['小红', '是啊，我们走走吧。'],
  ],
  [['小明', '好啊。']],
];

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

async function dramasLeft(page: Page): Promise<number> {
  const limits = await api<{
    remainRealPeopleVideoCount: number;
    remainRewardsRealPeopleVideoCount: number;
  }>(page, '/api/user/get_user_limit_info');
  return limits.remainRealPeopleVideoCount + limits.remainRewardsRealPeopleVideoCount;
}

function workIdOf(page: Page): number {
  const workId = Number(new URL(page.url()).searchParams.get('workId'));
  expect(Number.isInteger(workId) && workId > 0).toBe(true);
  return workId;
}

/** `00:00:12,345` -> 12.345 (seconds). */
function srtSeconds(time: string): number {
  const [h = '0', m = '0', rest = '0'] = time.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(rest.replace(',', '.'));
}

describe('the real-person short drama (issue 15)', () => {
  it(
    'makes a drama from two uploaded photos and three lines by two characters, through to the finished video and its 「角色：台词」 captions',
    async () => {
      const { username, password } = await createUser({ templateIds: '0,1' });
      await grantQuota(username, 'realOpera', { gen: 2 });
      const { context, page } = await newPage(browser);
      await signIn(page, username, password);
      const title = `雨后重逢 ${username}`;

      // The hub: the drama's card with its count.
      await page.goto('/video');
      const card = page.getByRole('group', { name: '真人短剧', exact: true });
      await card.getByText('剩余生成 2 次').waitFor();
      await card.getByRole('button', { name: '开始制作真人短剧' }).click();
      await page.waitForURL((url) => url.pathname === '/video/operaConfig');

      // Configuration: the title; portrait, classic captions and the default music stay.
      await page.getByText('字幕逐句显示为「角色：台词」').waitFor();
      await page.getByLabel('作品标题').fill(title);
      await screenshot(page, 'opera-config');
      await page.getByRole('button', { name: '下一步：剧本台词' }).click();
      await page.waitForURL(
        (url) => url.pathname === '/video/operaCaption' && url.searchParams.has('workId'),
      );
      const workId = workIdOf(page);

      // The script: two scenes, three lines, two characters, typed as a person would.
      for (const [i, lines] of SCRIPT.entries()) {
        if (i > 0) await page.getByRole('button', { name: /添加场景$/ }).click();
        for (const [j, [speaker, text]] of lines.entries()) {
          const where = `第 ${i + 1} 个场景第 ${j + 1} 句`;
          if (j > 0) await page.getByRole('button', { name: `给场景 ${i + 1} 添加台词` }).click();
          await page.getByLabel(`${where}的角色`).fill(speaker);
          await page.getByLabel(`${where}的角色`).press('Escape');
          await page.getByLabel(`${where}的台词`).fill(text);
        }
      }
      expect(await page.getByTestId('script-summary').textContent()).toMatch(
        /^共 2 个场景 · 3 句台词 · 2 个角色/,
      );
      await screenshot(page, 'opera-caption');
      await expectCleanPage(page, 'opera-caption');
      // A reload keeps the script.
      await page.reload();
      await page.getByLabel('第 2 个场景第 1 句的台词').waitFor();
      expect(await page.getByLabel('第 1 个场景第 2 句的角色').inputValue()).toBe('小红');
      expect(await page.getByLabel('第 2 个场景第 1 句的台词').inputValue()).toBe('好啊。');
      await page.getByRole('button', { name: '下一步：角色配音' }).click();
      await page.waitForURL((url) => url.pathname === '/video/operaCharacter');

      // Characters: one voice each, different to start with, auditioned with their own line.
      const ming = page.getByRole('group', { name: '角色 小明' });
      const hong = page.getByRole('group', { name: '角色 小红' });
      await ming.waitFor();
      await expect(page.getByRole('group', { name: /^角色 / }).count()).resolves.toBe(2);
      const voiceText = async (group: Locator) =>
        (await group.locator('.ant-select').textContent()) ?? '';
      // Plain voice names (普通话 女声): the engine is said once, under the pickers.
      await until(
        'both voices named',
        async () =>
          (await voiceText(ming)).includes('普通话') && (await voiceText(hong)).includes('普通话'),
      );
      expect(await voiceText(ming)).not.toBe(await voiceText(hong));
      const audition = page.waitForResponse((r) => r.url().includes('/api/video/tts_audition'));
      await page.getByLabel('试听 小红 的配音').click();
      const auditioned = await audition;
      expect(auditioned.request().postDataJSON()).toMatchObject({ text: '是啊，我们走走吧。' });
      expect(((await auditioned.json()) as { code: number }).code).toBe(0);
      await page.getByLabel('小明 在场景 2 有 1 句').waitFor();
      await screenshot(page, 'opera-character');
      await expectCleanPage(page, 'opera-character');
      await page.getByRole('button', { name: '下一步：场景素材' }).click();
      await page.waitForURL((url) => url.pathname === '/video/operaScene');

      // Scenes: the limits first; a wrong file refused with its reason; then the two photos.
      await page.getByText('照片：JPEG、PNG、WebP，不超过 5 MB').waitFor();
      await page.getByLabel('选择第 1 个场景的视频或照片').setInputFiles({
        name: '台词.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('小明：你好'),
      });
      await page
        .getByRole('group', { name: '场景 1' })
        .getByText(
          '「台词.txt」的格式不支持：请上传 JPEG、PNG、WebP 照片或 MP4、MOV、WebM、MKV 视频',
        )
        .waitFor();
      const photos = [photo([45, 108, 223], [250, 250, 250]), photo([200, 60, 90], [30, 30, 30])];
      for (const [i, bytes] of photos.entries()) {
        const n = i + 1;
        await page.getByLabel(`选择第 ${n} 个场景的视频或照片`).setInputFiles({
          name: `场景${n}.png`,
          mimeType: 'image/png',
          buffer: bytes,
        });
        const shown = page
          .getByRole('group', { name: `场景 ${n}` })
          .getByAltText(`场景 ${n} 的照片`);
        await shown.waitFor();
        // The preview is the uploaded file, served back.
        await until('the uploaded photo shown', async () =>
          shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 360),
        );
      }
      await screenshot(page, 'opera-scene');
      await expectCleanPage(page, 'opera-scene');

      // Generate: one count, asked first.
      const generate = page.getByRole('button', { name: '生成视频（剩余 2 次）' });
      await generate.click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '将消耗 1 次「真人短剧」' });
      await dialog.getByText('当前剩余 2 次').waitFor();
      await screenshot(page, 'opera-generate-confirm');
      await expectCleanPage(page, 'opera-generate-confirm');
      await confirmAndReach(
        page,
        dialog,
        (url) =>
          url.pathname === '/video/production' && url.searchParams.get('workId') === String(workId),
        'opera-generate-stuck',
      );
      const task = page.getByRole('group', { name: `生成任务 ${title}` });
      await task.waitFor();
      const { stages } = await watchProduction(page, task, 'opera-production');
      const order = stages.map((stage) => STAGES.indexOf(stage));
      expect(order.every((index) => index >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      const tags = await task.getByLabel('生成阶段').locator('.ant-tag').allTextContents();
      expect(tags.map((tag) => tag.replace(/\s+/g, ' ').trim())).toEqual([
        '文案 已完成',
        '配音 已完成',
        '合成 已完成',
      ]);
      await screenshot(page, 'opera-production-done');
      expect(await dramasLeft(page)).toBe(1);

      // The finished video: playable, as long as the server says, with the drama's captions.
      await task.getByRole('button', { name: `查看视频 ${title}` }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/video/short/'));
      const taskId = decodeURIComponent(new URL(page.url()).pathname.slice('/video/short/'.length));
      const result = await api<{
        workId: number;
        state: string;
        videoUrl: string;
        srtUrl: string;
        durationMs: number;
      }>(page, `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`);
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
      // It plays: the picture moves on from the start.
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

      const srtLink = page.getByRole('link', { name: /下载 SRT 字幕/ });
      expect(await srtLink.getAttribute('href')).toBe(result.srtUrl);
      const srt = await page.request.get(result.srtUrl);
      expect(srt.status()).toBe(200);
      const srtText = await srt.text();
      const cues = srtText
        .replace(/\r\n?/g, '\n')
        .split(/\n{2,}/)
        .map((block) => block.split('\n').slice(2).join(''))
        .filter(Boolean);
      expect(cues).toEqual(SCRIPT.flat().map(([speaker, text]) => `${speaker}：${text}`));
      const ends = [...srtText.matchAll(/--> (\d\d:\d\d:\d\d,\d{3})/g)].map((m) =>
        srtSeconds(m[1] ?? ''),
      );
      expect(Math.max(...ends)).toBeLessThanOrEqual(duration + 0.1);
      await page.getByText('真人短剧 · 时长').waitFor();
      await screenshot(page, 'opera-short');
      await context.close();
    },
    RENDER_LIMIT_MS + 3 * 60_000,
  );
});
