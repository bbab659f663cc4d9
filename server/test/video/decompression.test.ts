import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { Material, MaterialTag, TaskRef, UsageLimits } from '@kol/shared-sdk/contracts';
import { ffmpegToFile } from '../../src/video/engine/ffmpeg';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { startFakeOpenAi } from '../writing/fake-openai';
import { signedInClient, type Client } from '../writing/helpers';
import {
  expectOfflineReport,
  expectProvenVideo,
  finishedWork,
  mediaFile,
  renderingTasks,
} from './proof';

// Real espeak-ng and ffmpeg at 216x384.
jest.setTimeout(180_000);

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let aliceId = 0;

async function userIdOf(client: Client): Promise<number> {
  return ((await client.get('/api/user/current')).data as { userId: number }).userId;
}

const limits = async (client: Client) =>
  (await client.get('/api/user/get_user_limit_info')).data as UsageLimits;

/** Mean RGB of the top 40 px of a picture or of a video's first frame. */
async function topColour(file: string): Promise<number[]> {
  const out = path.join(testDataDir(), `top-${Math.random().toString(16).slice(2)}.rgb`);
  await ffmpegToFile(
    [
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      'scale=216:384,crop=216:40:0:0,scale=1:1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
    ],
    out,
  );
  return [...(await readFile(out))];
}
const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - (b[i] ?? 0)));

async function newWork(client: Client, type: number, text: string, settings: object) {
  const saved = await client.post('/api/video/save_text', { title: '解压', text, type });
  expect(saved.code).toBe(0);
  const { workId } = saved.data as { workId: number };
  const set = await client.edit('/api/video/save_video_info', { workId, settings });
  expect(set.code).toBe(0);
  return workId;
}

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  aliceId = await userIdOf(alice);
  await app.quotaService.grant(aliceId, 'decompression', { gen: 2 });
  await app.quotaService.grant(aliceId, 'decompressionOverseas', { gen: 1 });
});
afterAll(async () => {
  await app.close();
});

describe('material library', () => {
  it('lists built-in loops by tag with covers any signed-in user can fetch', async () => {
    const tags = (await bob.get('/api/cut_video/get_cut_video_tag_list')).data as MaterialTag[];
    expect(tags.map((t) => t.name)).toEqual(expect.arrayContaining(['平静', '暗色', '我的上传']));
    const all = (await bob.get('/api/cut_video/get_system_material_list')).data as {
      items: Material[];
      total: number;
    };
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.items.every((m) => m.source === 0 && m.materialId < 0)).toBe(true);
    const dark = tags.find((t) => t.name === '暗色')?.tagId;
    const darkOnes = (await bob.get(`/api/cut_video/get_system_material_list?tagId=${dark}`))
      .data as { items: Material[] };
    expect(darkOnes.items.length).toBeGreaterThan(0);
    expect(darkOnes.items.length).toBeLessThan(all.items.length);
    expect(darkOnes.items.every((m) => m.tagIds.includes(dark ?? -1))).toBe(true);
    const paged = (await bob.get('/api/cut_video/get_system_material_list?pageIndex=2&pageSize=4'))
      .data as { items: Material[]; total: number };
    expect(paged.items.map((m) => m.materialId)).toEqual(
      all.items.slice(4, 8).map((m) => m.materialId),
    );

    // By category: 视频素材 (type 0) → 背景 → its second level, as the page browses them.
    type Category = { id: number; name: string };
    const first = (await bob.get('/api/edit/get_first_level_list?type=0')).data as Category[];
    const backgrounds = first.find((c) => c.name === '背景');
    expect(backgrounds).toBeDefined();
    const second = (await bob.get(`/api/edit/get_second_level_list?parentId=${backgrounds?.id}`))
      .data as Category[];
    const listed = async (categoryId: number) =>
      (
        (await bob.get(`/api/cut_video/get_system_material_list?categoryId=${categoryId}`))
          .data as { items: Material[] }
      ).items.map((m) => m.name);
    const stars = second.find((c) => c.name === '星空粒子')?.id ?? -1;
    expect(await listed(stars)).toEqual(['极光夜空', '星河微光']);
    // The first level lists every material of its children; uploads belong to no category.
    expect((await listed(backgrounds?.id ?? -1)).sort()).toEqual(
      all.items.map((m) => m.name).sort(),
    );
    // A category with nothing in it is an empty page, not an error; an unknown one is refused.
    expect(await listed(second.find((c) => c.name === '城市夜景')?.id ?? -1)).toEqual([]);
    const unknown = await bob.get('/api/cut_video/get_system_material_list?categoryId=999999');
    expect(unknown.status).toBe(400);
    expect(unknown.msg).toBe('「素材分类」不存在');

    const cover = await app.inject({
      method: 'GET',
      url: all.items[0]?.coverUrl ?? '',
      headers: bob.headers,
    });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/jpeg');
    const anonymous = await app.inject({ method: 'GET', url: all.items[0]?.coverUrl ?? '' });
    expect(anonymous.statusCode).toBe(401);
    const other = await app.inject({
      method: 'GET',
      url: '/media/library/materials/nope.mp4',
      headers: bob.headers,
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('decompression video (type 1)', () => {
  it('speaks the text over the chosen looping background', async () => {
    const materials = (await alice.get('/api/cut_video/get_system_material_list')).data as {
      items: Material[];
    };
    // Not the default (first) loop, so the test tells them apart.
    const chosen = materials.items.find((m) => m.name === '深海波光');
    const fallback = materials.items[0];
    if (!chosen || !fallback) throw new Error('materials missing');
    const workId = await newWork(alice, 1, '深呼吸，放松肩膀。让思绪慢慢沉静下来。', {
      aspect: '9:16',
      backgroundMaterialId: chosen.materialId,
    });
    const before = await limits(alice);
    const started = await alice.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    expect((await limits(alice)).remainCutCount).toBe(before.remainCutCount - 1);

    const result = await finishedWork(alice, workId, taskId);
    expect(result.stages.map((s) => s.name)).toEqual(['script', 'voice', 'compose']);
    const task = await app.videoTasks.findTask(aliceId, taskId);
    const speechMs = task?.outputs.durationMs as number;
    expect(speechMs).toBeGreaterThan(1000);
    await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs,
      spoken: ['深呼吸，放松肩膀。', '让思绪慢慢沉静下来。'],
    });
    expect(task?.outputs.materialId).toBe(chosen.materialId);
    // No drawn pictures over a background; the espeak-ng voice is named as a thing to fix.
    expectOfflineReport(result, 0);

    // The first frame above the captions is the chosen loop's first frame, not the default's.
    const frame = await topColour(mediaFile(app, result.videoUrl));
    const chosenCover = await topColour(mediaFile(app, chosen.coverUrl));
    const fallbackCover = await topColour(mediaFile(app, fallback.coverUrl));
    expect(distance(frame, chosenCover)).toBeLessThan(25);
    expect(distance(frame, fallbackCover)).toBeGreaterThan(40);

    expect((await bob.get(`/api/video/get_work_result?workId=${workId}`)).status).toBe(404);
  });

  it('refuses flagged words before spending, and a background that is not the user’s', async () => {
    const banned = await newWork(alice, 1, '全网第一的放松方法，秒杀一切焦虑。', {
      aspect: '9:16',
    });
    const before = await limits(alice);
    const refusedWords = await alice.post('/api/video/gen_video', { workId: banned });
    expect(refusedWords.status).toBe(400);
    expect(refusedWords.msg).toContain('秒杀');
    expect((await limits(alice)).remainCutCount).toBe(before.remainCutCount);

    // An id of no material of hers: the task fails at its first stage, as her fault (no refund).
    const foreign = await newWork(alice, 1, '你好。', {
      aspect: '9:16',
      backgroundMaterialId: 424242,
    });
    expect((await alice.post('/api/video/gen_video', { workId: foreign })).code).toBe(0);
    const refused = await waitFor(async () => {
      const data = (await alice.get(`/api/video/get_work_result?workId=${foreign}`)).data as {
        state: string;
        error: string | null;
      };
      return data.state === 'failed' ? data : null;
    }, 60_000);
    expect(refused.error).toContain('「背景素材」不存在或不属于你');
    expect((await limits(alice)).remainCutCount).toBe(before.remainCutCount - 1);
  });
});

describe('overseas decompression video (type 6)', () => {
  it('speaks English with the English offline voice by default', async () => {
    const workId = await newWork(alice, 6, 'Breathe in slowly. Let the day drift away.', {
      aspect: '9:16',
    });
    const started = await alice.post('/api/video/gen_video', { workId });
    const { taskId } = started.data as TaskRef;
    const result = await finishedWork(alice, workId, taskId);
    const task = await app.videoTasks.findTask(aliceId, taskId);
    expect(task?.outputs.voiceId).toBe('espeak-en-us-f');
    await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs: task?.outputs.durationMs as number,
      spoken: ['Breathe in slowly.'],
    });
  });
});

describe('overseas decompression of a Chinese text', () => {
  it('offline: refuses it before spending, says why, and has no translator', async () => {
    const workId = await newWork(alice, 6, '深呼吸，放松肩膀。', { aspect: '9:16' });
    const before = await limits(alice);
    const refused = await alice.post('/api/video/gen_video', { workId });
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe(
      '海外版需要英文文案：当前未配置文本模型，无法自动翻译，请粘贴英文文案',
    );
    expect((await alice.get(`/api/video/regenerate_video?workId=${workId}`)).status).toBe(400);
    expect(await limits(alice)).toEqual(before);
    // The page learns there is no chat model, and translation is refused in the same words.
    expect((await alice.get('/api/video/services')).data).toEqual({
      text: null,
      pictures: null,
      voice: null,
      clips: null,
    });
    const translate = await alice.post('/api/video/translate', { text: '深呼吸，放松肩膀。' });
    expect(translate.status).toBe(400);
    expect(translate.msg).toBe('无法翻译为英文：当前未配置文本模型，请粘贴英文文案');
  });

  it('with a chat model: translates it sentence by sentence for the page', async () => {
    const fake = await startFakeOpenAi();
    const { app: online } = await createTestApp({
      llm: {
        baseUrl: fake.baseUrl,
        apiKey: 'k',
        model: 'fake-model',
        timeoutMs: 5_000,
        maxRetries: 0,
      },
    });
    try {
      const carol = await signedInClient(online);
      expect(((await carol.get('/api/video/services')).data as { text: string }).text).toContain(
        'fake-model',
      );
      fake.script.push({
        type: 'message',
        content: JSON.stringify({ sentences: ['Breathe deeply.', 'Relax your shoulders.'] }),
      });
      const answer = await carol.post('/api/video/translate', { text: '深呼吸。放松肩膀。' });
      expect(answer.data).toEqual({
        text: 'Breathe deeply.\nRelax your shoulders.',
        engine: expect.stringContaining('fake-model'),
      });
      // A Chinese text is still refused by gen_video: the page translates it first.
      const workId = await newWork(carol, 6, '深呼吸。', { aspect: '9:16' });
      const refused = await carol.post('/api/video/gen_video', { workId });
      expect(refused.msg).toContain('请先「翻译为英文」');
    } finally {
      await online.close();
      await fake.close();
    }
  });
});
