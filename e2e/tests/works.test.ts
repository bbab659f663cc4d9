import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  createUser,
  grantQuota,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { expectCleanPage } from '../support/audit';

let browser: Browser;
let page: Page;
let workId = 0;

/** Rendering a video on 2 cores shared with other work: a limit against hangs, not a target. */
const RENDER_LIMIT_MS = 5 * 60_000;

const TITLE = '雾港来信';
const CAPTIONS = ['邮差林舟推着自行车穿过石板路。', '他在信箱里发现一封没有署名的信。'];
const NEW_CAPTION = '信上只写着一句话：今晚不要去码头。';

/** An API call with the browser's session cookie (and the platform header every call sends). */
async function api<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const response = await page.request.fetch(url, {
    method,
    headers: { platform: 'pc' },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(response.status()).toBe(200);
  const envelope = (await response.json()) as { code: number; msg?: string; data: T };
  if (envelope.code !== 0) throw new Error(`${url} answered ${envelope.code}: ${envelope.msg}`);
  return envelope.data;
}

interface Result {
  taskId: string | null;
  state: string;
  videoUrl: string;
  srtUrl: string;
  error: string | null;
}

/** Waits for the task to end well; a failure throws with its message. */
async function finished(taskId: string): Promise<Result> {
  const deadline = Date.now() + RENDER_LIMIT_MS;
  while (Date.now() < deadline) {
    const result = await api<Result>('GET', `/api/video/get_work_result?taskId=${taskId}`);
    if (result.state === 'failed') throw new Error(`the task failed: ${result.error ?? ''}`);
    if (result.state === 'succeeded') return result;
    await page.waitForTimeout(250);
  }
  throw new Error('the task did not end in time');
}

beforeAll(async () => {
  browser = await launchBrowser();
  const user = await createUser({ templateIds: '0,1,2,3,4,5,6' });
  await grantQuota(user.username, 'comics', { gen: 1, merge: 1 });
  ({ page } = await newPage(browser));
  await signIn(page, user.username, user.password);
  // A comic work made through the API: its text, its two shots, its video.
  ({ workId } = await api<{ workId: number }>('POST', '/api/video/save_text', {
    title: TITLE,
    text: CAPTIONS.join(''),
    type: 0,
  }));
  await api('POST', '/api/video/update_text', {
    workId,
    revision: 1,
    shots: CAPTIONS.map((caption, index) => ({
      index,
      caption,
      imagePrompt: caption,
      roleIds: [],
      imageUrl: '',
      audioUrl: '',
      durationMs: 0,
      needsRegeneration: false,
    })),
  });
  const { taskId } = await api<{ taskId: string }>('POST', '/api/video/gen_video', { workId });
  await finished(taskId);
});
afterAll(async () => {
  await browser?.close();
});

describe('My works', () => {
  it('lists the finished comic under 作品, plays it, and moves it to 草稿 and back', async () => {
    await page.goto('/work/comics?tab=works');
    const card = page.getByTestId(`work-card-${workId}`);
    await card.waitFor();
    await card.getByText('已完成', { exact: true }).waitFor();
    await card.getByRole('button', { name: `更多 ${TITLE}` }).click();
    await page.getByRole('menuitem', { name: '播放' }).click();
    const player = page.getByLabel('视频播放器');
    await player.waitFor();
    // The browser really plays it: metadata read, then time moves on.
    const duration = await player.evaluate(
      (video: HTMLVideoElement) =>
        new Promise<number>((resolve, reject) => {
          video.muted = true;
          const done = () => resolve(video.duration);
          if (video.readyState >= 1) done();
          else video.addEventListener('loadedmetadata', done, { once: true });
          video.addEventListener('error', () => reject(new Error('video error')), { once: true });
        }),
    );
    expect(duration).toBeGreaterThan(1);
    await player.evaluate((video: HTMLVideoElement) => video.play());
    await page.waitForFunction(
      () =>
        (document.querySelector('video[aria-label="视频播放器"]') as HTMLVideoElement).currentTime >
        0.2,
    );
    await screenshot(page, 'works-comics-player');
    await page.keyboard.press('Escape');

    await card.getByRole('button', { name: `更多 ${TITLE}` }).click();
    await page.getByRole('menuitem', { name: '移到草稿' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: '草稿' }).click();
    const draft = page.getByTestId(`work-card-${workId}`);
    await draft.getByRole('button', { name: `更多 ${TITLE}` }).click();
    await page.getByRole('menuitem', { name: '移到作品' }).click();
    await draft.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: '作品' }).click();
    await page.getByTestId(`work-card-${workId}`).waitFor();
    await screenshot(page, 'works-comics-list');
  });

  it('edits a shot’s caption in /work/cut/:id, regenerates it, and the next video says it', async () => {
    await page.goto(`/work/cut/${workId}`);
    const second = page.getByRole('group', { name: '片段 2' });
    await second.waitFor();
    await second.click();
    const caption = page.getByLabel('片段文案');
    await caption.fill(NEW_CAPTION);
    // Saved as typed, with no save button: the server has the new caption.
    const deadline = Date.now() + 10_000;
    let texts: string[] = [];
    while (Date.now() < deadline) {
      const cut = await api<{ segments: Array<{ text: string }> }>(
        'GET',
        `/api/cut_video/get_cut_video?workId=${workId}`,
      );
      texts = cut.segments.map((segment) => segment.text);
      if (texts[1] === NEW_CAPTION) break;
      await page.waitForTimeout(200);
    }
    expect(texts).toEqual([CAPTIONS[0], NEW_CAPTION]);
    await page.getByTestId('save-state').getByText('已保存').waitFor();
    await page.getByRole('button', { name: '重新生成此片段' }).click();
    await page.getByRole('button', { name: '重新生成此片段' }).waitFor({ timeout: 60_000 });
    // The first shot keeps the voice the video gave it: nothing else needs speaking.
    await page.getByText('共 2 个片段，都已配音', { exact: false }).waitFor();
    const merge = page.getByRole('button', { name: '重新合成' });
    await merge.waitFor({ timeout: 60_000 });
    await merge.click();
    await page.getByText('将消耗 1 次').waitFor();
    await page.getByRole('button', { name: '确认合成' }).click();
    await page.getByText(/^新视频已生成（时长/).waitFor({ timeout: RENDER_LIMIT_MS });
    await screenshot(page, 'works-cut-editor');

    const result = await api<Result>('GET', `/api/video/get_work_result?workId=${workId}`);
    const srt = await (await page.request.get(result.srtUrl)).text();
    // The captions as said, in order: one short line per cue, so a sentence may span cues.
    const said = srt
      .replace(/\r/g, '')
      .trim()
      .split(/\n\n+/)
      .map((block) => block.split('\n').slice(2).join(''))
      .join('');
    expect(said).toContain(NEW_CAPTION);
    expect(said).not.toContain(CAPTIONS[1]);
    expect(said).toContain(CAPTIONS[0]);
  });

  it('two tabs on /work/cut/:id: the second save shows the conflict and keeps its text', async () => {
    const other = await page.context().newPage();
    try {
      await page.goto(`/work/cut/${workId}`);
      await other.goto(`/work/cut/${workId}`);
      for (const tab of [page, other]) await tab.getByRole('group', { name: '片段 1' }).click();
      await page.getByLabel('片段文案').fill('第一个标签页改的开头。');
      // The first tab's save has reached the server before the second tab edits.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const held = await api<{ segments: Array<{ text: string }> }>(
          'GET',
          `/api/cut_video/get_cut_video?workId=${workId}`,
        );
        if (held.segments[0]?.text === '第一个标签页改的开头。') break;
        await page.waitForTimeout(200);
      }
      // The second tab loaded before that save and edits the same caption.
      await other.getByLabel('片段文案').fill('第二个标签页改的开头。');
      // The dialog (antd keeps a hidden copy of its title: wait for its button).
      await other.getByRole('button', { name: '保留我的修改' }).waitFor();
      await other.getByText('内容已在其他页面修改').last().waitFor();
      await screenshot(other, 'works-cut-two-tabs-conflict');
      await expectCleanPage(other, 'works-cut-two-tabs-conflict');
      expect(await other.getByLabel('片段文案').inputValue()).toBe('第二个标签页改的开头。');
      let cut = await api<{ segments: Array<{ text: string }> }>(
        'GET',
        `/api/cut_video/get_cut_video?workId=${workId}`,
      );
      expect(cut.segments[0]?.text).toBe('第一个标签页改的开头。');
      // Keeping it saves it over the newest data, on the newest revision.
      await other.getByRole('button', { name: '保留我的修改' }).click();
      await other.getByTestId('save-state').getByText('已保存').waitFor();
      cut = await api('GET', `/api/cut_video/get_cut_video?workId=${workId}`);
      expect(cut.segments[0]?.text).toBe('第二个标签页改的开头。');
    } finally {
      await other.close();
    }
  });

  it('生成全部画面 then a reload keeps every picture', async () => {
    const captions = Array.from({ length: 7 }, (_, i) => `第${i + 1}幕，雾港的灯一盏盏亮起。`);
    const { workId: pictured } = await api<{ workId: number }>('POST', '/api/video/save_text', {
      title: '雾港七幕',
      text: captions.join(''),
      type: 0,
    });
    await api('POST', '/api/video/update_text', {
      workId: pictured,
      revision: 1,
      shots: captions.map((caption, index) => ({
        index,
        caption,
        imagePrompt: caption,
        roleIds: [],
        imageUrl: '',
        audioUrl: '',
        durationMs: 0,
        needsRegeneration: false,
      })),
    });
    await page.goto(`/video/promptWord/${pictured}?type=0`);
    await page.getByRole('group', { name: '分镜 7' }).waitFor();
    await page.getByRole('button', { name: /生成全部画面/ }).click();
    for (let n = 1; n <= 7; n += 1) {
      await page.getByAltText(`分镜 ${n} 的画面`).waitFor({ timeout: RENDER_LIMIT_MS });
    }
    await page.reload();
    await page.getByRole('group', { name: '分镜 7' }).waitFor();
    for (let n = 1; n <= 7; n += 1) await page.getByAltText(`分镜 ${n} 的画面`).waitFor();
    expect(await page.getByText('尚未生成画面').count()).toBe(0);
    await screenshot(page, 'video-prompt-word-all-pictures');
    const work = await api<{ shots: Array<{ imageUrl: string }> }>(
      'GET',
      `/api/video/work_info?workId=${pictured}`,
    );
    expect(work.shots.filter((shot) => shot.imageUrl).length).toBe(7);
  });

  it('uses a role made in /work/character in a new comic task', async () => {
    const { workId: next } = await api<{ workId: number }>('POST', '/api/video/save_text', {
      title: '新的漫剪',
      text: '林舟在码头等了一夜。',
      type: 0,
    });
    await page.goto('/work/character');
    await page.getByRole('button', { name: '新建角色' }).first().click();
    await page.getByLabel('角色名').fill('林舟');
    await page.getByLabel('外貌描述').fill('二十岁的邮差，短发，深蓝制服');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    const card = page.getByRole('group', { name: '角色 林舟' });
    await card.waitFor();
    await card.getByRole('button', { name: '用于视频 林舟' }).click();
    await page.getByRole('button', { name: '加入《新的漫剪》' }).click();
    await page.getByTestId('role-use-dialog').getByText('已加入《新的漫剪》的角色').waitFor();
    await screenshot(page, 'works-roles');
    await expectCleanPage(page, 'works-roles-use-dialog');

    const { taskId } = await api<{ taskId: string }>('POST', '/api/role/init_task', {
      type: 0,
      workId: next,
    });
    const roles = await api<Array<{ name: string }>>('GET', `/api/role/get_roles?taskId=${taskId}`);
    expect(roles.map((role) => role.name)).toContain('林舟');
  });
});
