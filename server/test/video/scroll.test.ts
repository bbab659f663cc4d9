import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import {
  ProjectType,
  estimateNarrationMs,
  narrationVoiceOf,
  type TaskRef,
  type UsageLimits,
} from '@kol/shared-sdk/contracts';
import { ffmpegToFile } from '../../src/video/engine/ffmpeg';
import { layoutScroll } from '../../src/video/pipelines/scroll/pipeline';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { signedInClient, type Client } from '../writing/helpers';
import {
  expectEstimateHolds,
  expectOfflineReport,
  expectProvenVideo,
  finishedWork,
  mediaFile,
  renderingTasks,
} from './proof';

jest.setTimeout(180_000);

let app: FastifyInstance;
let alice: Client;
let aliceId = 0;

const limits = async (client: Client) =>
  (await client.get('/api/user/get_user_limit_info')).data as UsageLimits;

/** Bright (text) pixels in a horizontal band of the frame at `seconds` (rows as shares). */
async function brightPixels(video: string, seconds: number, from: number, to: number) {
  const out = path.join(testDataDir(), `band-${seconds}-${from}.gray`);
  await ffmpegToFile(
    [
      '-ss',
      seconds.toFixed(3),
      '-i',
      video,
      '-frames:v',
      '1',
      '-vf',
      `crop=iw:ih*${to - from}:0:ih*${from},format=gray`,
      '-f',
      'rawvideo',
    ],
    out,
  );
  return [...(await readFile(out))].filter((v) => v > 200).length;
}

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  aliceId = ((await alice.get('/api/user/current')).data as { userId: number }).userId;
  await app.quotaService.grant(aliceId, 'scroll', { gen: 1 });
});
afterAll(async () => {
  await app.close();
});

describe('scroll video (type 2)', () => {
  it('wraps paragraphs into lines of the column', () => {
    const layout = layoutScroll(
      '第一段很短。\n第二段比较长，需要在竖屏画面里换行才能放得下这么多字。',
      { width: 1080, height: 1920 },
      '9:16',
    );
    expect(layout.lines[0]).toBe('第一段很短。');
    expect(layout.lines[1]).toBe('');
    expect(layout.lines.length).toBeGreaterThan(3);
    expect(layout.height).toBe(layout.lines.length * layout.lineHeight);
    // Lines break between words: a width-only wrap cut 「镇/上的客栈」 and 「所/有的狗」.
    const page = layoutScroll(
      '傍晚时分，他才终于找到了镇上的客栈，要了一间上房。\n那天夜里风很大，村子里头所有的狗都在狂吠，叫个不停。',
      { width: 1080, height: 1920 },
      '9:16',
    ).lines;
    expect(page).toEqual([
      '傍晚时分，他才终于找到了',
      '镇上的客栈，要了一间上房。',
      '',
      '那天夜里风很大，',
      '村子里头所有的狗都在狂吠，',
      '叫个不停。',
    ]);
  });

  it('scrolls the whole text at the pace of the narration, as long as the page estimated, spending a scroll count', async () => {
    const text = [
      '清晨的风吹过湖面。',
      '岸边的柳树轻轻摇晃。',
      '远处传来几声鸟鸣。',
      '一天就这样安静地开始了。',
    ].join('\n');
    const saved = await alice.post('/api/video/save_text', { title: '滚屏', text, type: 2 });
    const { workId } = saved.data as { workId: number };
    const settings = { aspect: '9:16' as const, voiceId: 'espeak-cmn-m', speed: 1.2 };
    await alice.edit('/api/video/save_video_info', { workId, settings });
    const before = await limits(alice);
    expect(before.remainScrollCount).toBe(1);

    const started = await alice.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    expect((await limits(alice)).remainScrollCount).toBe(0);
    const result = await finishedWork(alice, workId, taskId);
    const task = await app.videoTasks.findTask(aliceId, taskId);
    const speechMs = task?.outputs.durationMs as number;
    const { durationMs } = await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs,
      spoken: ['清晨的风吹过湖面。', '一天就这样安静地开始了。'],
    });
    expectOfflineReport(result, 0);
    // The page's 预计时长 for this text, voice and speed: the scroll lasts its narration.
    const estimate = estimateNarrationMs(text, {
      voiceId: narrationVoiceOf(ProjectType.scroll, settings.voiceId),
      speed: settings.speed,
    });
    expectEstimateHolds(estimate, durationMs);

    // At the start the text begins at the reading band (nothing above it); at the end the
    // earlier lines have scrolled up above the band and the text has left the bottom.
    const video = mediaFile(app, result.videoUrl);
    const end = durationMs / 1000 - 0.2;
    expect(await brightPixels(video, 0.1, 0, 0.3)).toBeLessThan(20);
    expect(await brightPixels(video, 0.1, 0.55, 0.8)).toBeGreaterThan(100);
    expect(await brightPixels(video, end, 0, 0.3)).toBeGreaterThan(100);
    expect(await brightPixels(video, end, 0.55, 0.8)).toBeLessThan(20);

    // Scroll videos have no merge: refused before anything is spent.
    const merge = await alice.get(`/api/video_edit/send_merge_request?workId=${workId}`);
    expect(merge.status).toBe(400);
    const cut = await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`);
    expect(cut.status).toBe(400);
    // No count left: 402.
    expect((await alice.post('/api/video/gen_video', { workId })).status).toBe(402);
  });
});
