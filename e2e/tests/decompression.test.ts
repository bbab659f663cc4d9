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
import { RENDER_LIMIT_MS, confirmAndReach, watchProduction } from '../support/waits';
import { expectCleanPage } from '../support/audit';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Rendering on 2 cores shared with other work: a limit against hangs, not a target. */

const TEXT = '深呼吸，放松肩膀。让思绪慢慢沉静下来。';
const EDITED = '慢慢吸气，放松肩膀。';

interface Limits {
  remainCutCount: number;
  remainCutMergeCount: number;
}

/** The result page's video: its duration once loaded, and proof that it plays. */
async function playable(page: Page): Promise<number> {
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
  return duration;
}

/** The result page's task, checked against the server's result: its duration matches. */
async function checkResult(page: Page, workId: number, videoName: RegExp): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/video/short/'));
  const taskId = decodeURIComponent(new URL(page.url()).pathname.slice('/video/short/'.length));
  const result = await api<{ workId: number; state: string; videoUrl: string; durationMs: number }>(
    page,
    `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
  );
  expect(result).toMatchObject({ workId, state: 'succeeded' });
  expect(result.videoUrl).toMatch(videoName);
  const duration = await playable(page);
  expect(Math.abs(duration - result.durationMs / 1000)).toBeLessThan(0.5);
}

describe('the decompression video (issue 16)', () => {
  it(
    'renders over a library loop, then re-speaks one segment in /video/cut and merges it (one merge count)',
    async () => {
      const started = Date.now();
      const { username, password } = await createUser({ templateIds: '0,1,3' });
      await grantQuota(username, 'decompression', { gen: 2, merge: 1 });
      const { context, page } = await newPage(browser);
      await signIn(page, username, password);
      const title = `解压 ${username}`;

      // Configuration: the text, a loop of the library chosen by its category.
      await page.goto('/video/decompression');
      await page.getByLabel('作品标题').fill(title);
      await page.getByLabel('旁白文案').fill(TEXT);
      await page.getByText('视频：MP4、MOV、WebM、MKV，不超过 200 MB').waitFor();
      // A wrong file is refused with its reason before anything is sent.
      await page.getByLabel('选择背景视频').setInputFiles({
        name: '背景.png',
        mimeType: 'image/png',
        buffer: Buffer.from('not a video'),
      });
      await page
        .getByText('「背景.png」是图片：背景只能用视频（MP4、MOV、WebM、MKV）')
        .first()
        .waitFor();
      // antd hides its radio inputs: a person clicks the option's label.
      await page.locator('[aria-label="素材分类"]').getByText('暗色', { exact: true }).click();
      await page.locator('[aria-label="背景素材"]').getByText('深海波光', { exact: true }).click();
      await page
        .getByTestId('chosen-background')
        .getByText(/已选背景：深海波光/)
        .waitFor();
      // The moving preview plays from the library.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('video')].some((v) => v.readyState >= 2),
      );
      await screenshot(page, 'decompression-config');
      // A reload keeps everything typed and chosen.
      await page.reload();
      await page.getByLabel('深海波光').waitFor({ state: 'attached' });
      expect(await page.getByLabel('旁白文案').inputValue()).toBe(TEXT);
      expect(await page.getByLabel('深海波光').isChecked()).toBe(true);

      // A double click, as people do: one dialog, one work (issue 29).
      await page.getByRole('button', { name: '生成视频（剩余 2 次）' }).dblclick();
      const dialog = page.locator('.ant-modal').filter({ hasText: '将消耗 1 次「解压视频」' });
      await dialog.getByText('当前剩余 2 次').waitFor();
      await screenshot(page, 'decompression-confirm');
      await confirmAndReach(
        page,
        dialog,
        (url) => url.pathname === '/video/production',
        'decompression-generate-stuck',
      );
      const workId = Number(new URL(page.url()).searchParams.get('workId'));
      expect(workId).toBeGreaterThan(0);
      const settings = await api<{ settings: { backgroundMaterialId?: number } }>(
        page,
        `/api/video/work_info?workId=${workId}`,
      );
      expect(settings.settings.backgroundMaterialId).toBe(-3);
      const listed = await api<{ items: Array<{ title: string }> }>(
        page,
        '/api/video/get_works?type=1&pageSize=50',
      );
      expect(listed.items.filter((item) => item.title === title)).toHaveLength(1);
      const card = page.getByRole('group', { name: `生成任务 ${title}` });
      await card.waitFor();
      await watchProduction(page, card, 'decompression-production');
      await screenshot(page, 'decompression-production-done');
      await card.getByRole('button', { name: `查看视频 ${title}` }).click();
      await checkResult(page, workId, /\.mp4$/);
      await screenshot(page, 'decompression-short');
      const before = await api<Limits>(page, '/api/user/get_user_limit_info');

      // The segment editor (the works remote's editor, outside the layout): speak every segment,
      // then re-speak the first after its edit. The panel shows the segment chosen on the timeline.
      await page.getByRole('button', { name: '片段编辑' }).click();
      await page.waitForURL((url) => url.pathname === '/video/cut');
      const segment = (n: number) => page.getByRole('group', { name: `片段 ${n}` });
      await segment(2).waitFor();
      expect(await page.getByLabel('片段文案').inputValue()).toBe('深呼吸，放松肩膀。');
      await page.getByRole('button', { name: '全部配音' }).click();
      // The editor opens voiced from the video already: wait for this speech's own end.
      await page.getByText('全部片段配音已生成').waitFor({ timeout: 120_000 });
      await page.getByLabel('第 1 个片段的配音').waitFor();
      const firstAudio = await page.getByLabel('第 1 个片段的配音').getAttribute('src');
      await segment(2).click();
      await page.getByLabel('第 2 个片段的配音').waitFor();
      const secondAudio = await page.getByLabel('第 2 个片段的配音').getAttribute('src');
      await segment(1).click();
      await page.getByLabel('片段文案').fill(EDITED);
      await segment(1).getByText('文案已修改，需要重新配音').waitFor();
      await page.getByRole('button', { name: '重新生成此片段' }).click();
      await page.getByLabel('第 1 个片段的配音').waitFor({ timeout: 120_000 });
      expect(await page.getByLabel('第 1 个片段的配音').getAttribute('src')).not.toBe(firstAudio);
      // The new speech is served and is audio.
      const wav = await page.request.get(
        (await page.getByLabel('第 1 个片段的配音').getAttribute('src')) ?? '',
      );
      expect(wav.status()).toBe(200);
      await segment(2).click();
      expect(await page.getByLabel('第 2 个片段的配音').getAttribute('src')).toBe(secondAudio);
      await screenshot(page, 'decompression-cut');
      await expectCleanPage(page, 'decompression-cut');
      // A reload shows the segments as the server keeps them.
      await page.reload();
      await page.getByLabel('第 1 个片段的配音').waitFor();
      expect(await page.getByLabel('片段文案').inputValue()).toBe(EDITED);

      // Merge: one merge count, asked first.
      await page.getByRole('button', { name: '重新合成' }).click();
      const merge = page
        .locator('.ant-modal')
        .filter({ hasText: '将消耗 1 次「解压视频」合成次数' });
      await merge.getByText('当前剩余 1 次').waitFor();
      await screenshot(page, 'decompression-merge-confirm');
      await expectCleanPage(page, 'decompression-merge-confirm');
      await merge.getByRole('button', { name: '确认合成' }).click();
      await page.waitForURL((url) => url.pathname === '/video/production');
      const after = await api<Limits>(page, '/api/user/get_user_limit_info');
      expect(after.remainCutMergeCount).toBe(before.remainCutMergeCount - 1);
      expect(after.remainCutCount).toBe(before.remainCutCount);
      const merged = page.getByRole('group', { name: `生成任务 ${title}` });
      await merged.waitFor();
      await watchProduction(page, merged, 'decompression-merge-production');
      await merged.getByRole('button', { name: `查看视频 ${title}` }).click();
      await checkResult(page, workId, /merge\.mp4$/);
      await screenshot(page, 'decompression-merged-short');
      // Spent once: the finished merge did not take a second count.
      const end = await api<Limits>(page, '/api/user/get_user_limit_info');
      expect(end.remainCutMergeCount).toBe(before.remainCutMergeCount - 1);
      await context.close();
      console.log(`decompression e2e took ${Math.round((Date.now() - started) / 1000)} s`);
    },
    2 * RENDER_LIMIT_MS + 5 * 60_000,
  );
});
