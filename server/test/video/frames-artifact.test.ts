import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { TaskRef, WorkDetail, WorkResult } from '@kol/shared-sdk/contracts';
import { runFfmpeg } from '../../src/video/engine/ffmpeg';
import { createTestApp } from '../helpers/test-app';
import { signedInClient, type Client } from '../writing/helpers';
import { finishedWork, mediaFile, parseSrt, renderingTasks } from './proof';

/**
 * Frames to look at, not a check: with KOL_FRAMES=1, renders an offline comic, decompression
 * and anime video at the real size (1080x1920) and writes three consecutive frames of each (the
 * middle of three shots in a row, or of three caption lines) as PNG into e2e/artifacts/frames/
 * (git-ignored), so the person merging sees what a creator would post. Skipped otherwise: it
 * renders three full-size videos (about 2 minutes on 2 cores).
 *
 *   cd server && KOL_FRAMES=1 KOL_TEST_DB=pglite \
 *     NODE_OPTIONS='--experimental-vm-modules --disable-warning=ExperimentalWarning' \
 *     npx jest test/video/frames-artifact.test.ts
 */
const enabled = process.env.KOL_FRAMES === '1';
const OUT = path.resolve(__dirname, '../../../e2e/artifacts/frames');
const SIZE = { width: 1080, height: 1920 };

jest.setTimeout(600_000);

// Each sentence over 30 characters, so each is a shot of its own (at most 60 a shot), with the
// discourse words and address forms that used to become the titles.
const COMIC = [
  '话音刚落，一道剑光从客栈的窗外劈了进来，桌上的酒坛碎了一地，酒香四溢。',
  '“小子，你找死！”黑衣人一脚踢翻了长凳，手中的弯刀映着摇晃的烛火。',
  '林舟没有后退，只是握紧了父亲留下的那块玉佩，慢慢从角落里站了起来。',
  '镇上所有的狗都在这一刻叫了起来，远处的钟楼敲响了三更，雨越下越大。',
].join('');
const DECOMPRESSION =
  '深呼吸，放松肩膀，让思绪慢慢沉静下来。窗外的雨声很轻，像有人在远处弹琴。此刻什么都不用想，只要听着自己的呼吸。';
const ANIME = [
  '旁白：夜里，林舟推开了镇上那间客栈的木门，屋里只剩一盏油灯。',
  '林舟：掌柜，还有房吗？我赶了一天的山路。',
  '掌柜：只剩后院一间柴房，客官若不嫌弃，请随我来。',
  '旁白：话音刚落，门外传来一阵急促的马蹄声。',
].join('\n');

let app: FastifyInstance;
let alice: Client;

/** The moments to grab: the middle of the first caption line of shots 1 to 3 (or of lines). */
async function moments(result: WorkResult, captions: string[] | null): Promise<number[]> {
  const cues = parseSrt(await readFile(mediaFile(app, result.srtUrl), 'utf8'));
  const mid = (cue: { startMs: number; endMs: number }) => (cue.startMs + cue.endMs) / 2;
  if (!captions) return cues.slice(0, 3).map(mid);
  const flat = (s: string) => s.replace(/^[^：]{1,8}：/u, '').replace(/\s+/g, '');
  const found: number[] = [];
  let from = 0;
  for (const caption of captions.slice(0, 3)) {
    const at = cues.findIndex((cue, i) => i >= from && flat(caption).includes(flat(cue.text)));
    if (at < 0) throw new Error(`no caption of shot 「${caption}」 in the SRT`);
    found.push(mid(cues[at] as { startMs: number; endMs: number }));
    from = at + 1;
  }
  return found;
}

async function grab(result: WorkResult, name: string, captions: string[] | null) {
  const video = mediaFile(app, result.videoUrl);
  await mkdir(OUT, { recursive: true });
  const times = await moments(result, captions);
  for (const [i, ms] of times.entries()) {
    const file = path.join(OUT, `${name}-${i + 1}.png`);
    await runFfmpeg(['-y', '-ss', (ms / 1000).toFixed(3), '-i', video, '-frames:v', '1', file]);
    console.log(`${file} at ${(ms / 1000).toFixed(2)} s`);
  }
}

async function render(type: number, text: string, settings?: object): Promise<WorkResult> {
  const saved = await alice.post('/api/video/save_text', { title: '看画面', text, type });
  expect(saved.code).toBe(0);
  const { workId } = saved.data as { workId: number };
  if (settings)
    expect((await alice.edit('/api/video/save_video_info', { workId, settings })).code).toBe(0);
  const started = await alice.post('/api/video/gen_video', { workId });
  expect(started.code).toBe(0);
  const result = await finishedWork(alice, workId, (started.data as TaskRef).taskId, 540_000);
  return result;
}

const shotCaptions = async (workId: number) =>
  ((await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail).shots.map(
    (shot) => shot.caption,
  );

(enabled ? describe : describe.skip)('frames of offline videos, to look at (KOL_FRAMES=1)', () => {
  beforeAll(async () => {
    ({ app } = await createTestApp({
      videoTasks: { ...renderingTasks('frames'), renderSize: { ...SIZE } },
    }));
    alice = await signedInClient(app);
    const { userId } = (await alice.get('/api/user/current')).data as { userId: number };
    await app.quotaService.grant(userId, 'comics', { gen: 2 });
    await app.quotaService.grant(userId, 'decompression', { gen: 1 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('a comic video', async () => {
    const result = await render(0, COMIC, { aspect: '9:16' });
    await grab(result, 'comic', await shotCaptions(result.workId));
  });

  it('a decompression video', async () => {
    const result = await render(1, DECOMPRESSION, { aspect: '9:16' });
    await grab(result, 'decompression', null);
  });

  it('an anime video', async () => {
    const result = await render(11, ANIME, { aspect: '9:16' });
    await grab(result, 'anime', await shotCaptions(result.workId));
  });
});
