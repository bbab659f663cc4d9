import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import type { Role, SeriesDetail } from '@kol/shared-sdk';
import {
  api,
  createUser,
  grantQuota,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { RENDER_LIMIT_MS, until } from '../support/waits';
import { expectCleanPage } from '../support/audit';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The name the creator gives the first role of the cast. */
const FIXED_NAME = '林默然';

describe('a season of videos (整季生成)', () => {
  it('makes a 3-episode comic series from a library book with one reviewed cast, and downloads it as one ZIP', async () => {
    const { username, password } = await createUser({ templateIds: '0,1' });
    await grantQuota(username, 'comics', { gen: 3 });
    const { context, page } = await newPage(browser);
    // The page's own errors, said when the test fails (a frozen or failing page tells why).
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    try {
      await signIn(page, username, password);

      // From the hub to a new series: the library book, its first three chapters.
      await page.goto('/video');
      await page.getByRole('link', { name: '整季生成' }).click();
      await page.waitForURL((url) => url.pathname === '/video/series');
      await page.getByRole('combobox', { name: '书籍' }).click();
      await page.getByTitle(/^青灯照剑/).click();
      await page.getByText('共 3 集（一个系列最多 50 集）').waitFor();
      await page.getByRole('button', { name: '预估分集与次数' }).click();
      await page.getByText('需要 3 次生成次数，剩余 3 次').waitFor();
      await expectCleanPage(page, 'series-new');
      await screenshot(page, 'series-plan');
      await page.getByRole('button', { name: '创建系列，确认角色' }).click();
      await page.waitForURL((url) => /^\/video\/series\/\d+$/.test(url.pathname));
      const seriesId = Number(new URL(page.url()).pathname.split('/').at(-1));

      // The cast, read once across the chapters: the first role renamed and saved.
      const draft = await api<SeriesDetail>(page, `/api/series/detail?seriesId=${seriesId}`);
      const cast = await api<Role[]>(page, `/api/role/get_roles?taskId=${draft.castTaskId}`);
      expect(cast.length).toBeGreaterThan(0);
      const first = cast[0] as Role;
      const card = page.getByRole('group', { name: `角色 ${first.name}` });
      const nameField = card.getByLabel(`角色名 ${first.name}`);
      await nameField.fill(FIXED_NAME);
      expect(await nameField.inputValue()).toBe(FIXED_NAME);
      const save = card.getByRole('button', { name: '保存修改' });
      await until('保存修改 enabled after the rename', () => save.isEnabled());
      // A DOM click, without waiting for two still animation frames: once in CI the page drew
      // no frame for the whole wait (the check never reported), while nothing on it moved.
      await save.dispatchEvent('click');
      await until('the renamed role saved', async () =>
        (await api<Role[]>(page, `/api/role/get_roles?taskId=${draft.castTaskId}`)).some(
          (role) => role.name === FIXED_NAME,
        ),
      );
      await screenshot(page, 'series-cast');

      // Started: three counts set aside, the episodes made one after another.
      await page.getByRole('button', { name: '开始生成' }).click();
      const dialog = page.getByRole('dialog', { name: '开始生成 3 集？' });
      await dialog.getByRole('button', { name: '开始生成' }).click();
      await page.getByRole('group', { name: /^第1集 / }).waitFor();
      const done = await until(
        'every episode finished',
        async () => {
          const series = await api<SeriesDetail>(page, `/api/series/detail?seriesId=${seriesId}`);
          const failed = series.episodes.find((e) => e.state === 'failed');
          if (failed) throw new Error(`episode ${failed.index} failed: ${failed.error ?? ''}`);
          return series.state === 'finished' ? series : null;
        },
        3 * RENDER_LIMIT_MS,
        2000,
      );
      expect(done.episodes.map((e) => e.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      // The page followed it live: every card says 已完成 without a reload.
      for (const episode of done.episodes) {
        await page
          .getByRole('group', { name: `第${episode.index}集 ${episode.title}` })
          .getByText('已完成')
          .waitFor();
      }
      await expectCleanPage(page, 'series-done');
      await screenshot(page, 'series-done');

      // Every episode playable, and drawn with the cast as reviewed.
      for (const episode of done.episodes) {
        const video = await page.request.get(episode.videoUrl, {
          headers: { range: 'bytes=0-1023' },
        });
        expect(video.status()).toBe(206);
        expect(video.headers()['content-type']).toBe('video/mp4');
        const roleTask = await api<{ taskId: string }>(page, '/api/role/init_task', {
          type: 0,
          workId: episode.workId,
        });
        const roles = await api<Role[]>(page, `/api/role/get_roles?taskId=${roleTask.taskId}`);
        expect(roles.map((role) => role.name)).toContain(FIXED_NAME);
      }
      const firstEpisode = done.episodes[0] as SeriesDetail['episodes'][number];
      await page.getByRole('link', { name: `播放 第1集 ${firstEpisode.title}` }).click();
      await page.waitForURL((url) => url.pathname === `/video/short/${firstEpisode.taskId}`);
      const duration = await page.getByLabel('视频播放器').evaluate(
        (video: HTMLVideoElement) =>
          new Promise<number>((resolve, reject) => {
            if (video.readyState >= 1) resolve(video.duration);
            video.addEventListener('loadedmetadata', () => resolve(video.duration));
            video.addEventListener('error', () => reject(new Error('the video did not load')));
          }),
      );
      expect(duration).toBeGreaterThan(1);

      // The season as one ZIP: an MP4 and an SRT per episode.
      await page.goto(`/video/series/${seriesId}`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: '下载全部（ZIP）' }).click(),
      ]);
      const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
      const names = Object.keys(zip).sort();
      expect(names.filter((name) => name.endsWith('.mp4'))).toHaveLength(3);
      expect(names.filter((name) => name.endsWith('.srt'))).toHaveLength(3);
      expect(names[0]).toMatch(/^第01集 青灯照剑 第1集\.mp4$/);
      for (const name of names.filter((n) => n.endsWith('.mp4'))) {
        expect(zip[name]?.length ?? 0).toBeGreaterThan(10_000);
      }

      // My works, filtered by the series: its three episodes.
      await page.goto(`/work/comics?seriesId=${seriesId}`);
      for (const episode of done.episodes) await page.getByText(episode.title).first().waitFor();
    } catch (error) {
      // What the page showed when it failed (CI keeps the artifacts).
      await screenshot(page, 'series-failure').catch(() => {});
      if (pageErrors.length > 0) console.error(`page errors:\n${pageErrors.join('\n')}`);
      throw error;
    } finally {
      await context.close();
    }
  });
});
