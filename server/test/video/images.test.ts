import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { FastifyInstance } from 'fastify';
import {
  LOCAL_FALLBACK_LABEL,
  type ImageResult,
  type Role,
  type TaskRef,
  type WorkDetail,
  type WorkResult,
} from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import {
  fakeOpenAiImages,
  startFakeImages,
  type FakeImages,
} from '../providers/fake-image-servers';
import { waitFor } from '../tasks/helpers';
import { signedInClient, type Client } from '../writing/helpers';
import { expectProvenVideo, finishedWork, mediaFile, renderingTasks } from './proof';

// Real espeak-ng and ffmpeg at a small size; the image provider is a loopback fake.
jest.setTimeout(300_000);

let app: FastifyInstance;
let fake: FakeImages;
let alice: Client;
let bob: Client;
/** When set, the fake answers 500 to prompts containing it. */
let failing: string | null = '苏柔';

async function userIdOf(client: Client): Promise<number> {
  const me = await client.get('/api/user/current');
  return (me.data as { userId: number }).userId;
}

/** The mean colour of a picture file, to tell the provider's red picture from a local frame. */
async function meanColour(file: string): Promise<[number, number, number]> {
  const img = await loadImage(await readFile(file));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) {
    for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (data[i + c] ?? 0);
  }
  const n = data.length / 4;
  return [(sum[0] ?? 0) / n, (sum[1] ?? 0) / n, (sum[2] ?? 0) / n];
}

async function imageResult(client: Client, taskId: string): Promise<ImageResult> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/img_result?taskId=${taskId}`)).data as ImageResult;
    return data.state === 'succeeded' || data.state === 'failed' ? data : null;
  }, 60_000);
}

beforeAll(async () => {
  fake = await startFakeImages();
  fake.respond = (body) =>
    failing && String(body.prompt).includes(failing)
      ? { type: 'error', status: 500, message: 'GPU exploded' }
      : { type: 'b64' };
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
    images: fakeOpenAiImages(fake),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  await app.quotaService.grant(await userIdOf(alice), 'comics', { gen: 2 });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

describe('a comic video with an image provider that fails one shot', () => {
  let workId = 0;
  const roles: Role[] = [];
  let videoTaskId = '';

  it('still finishes; the failed shot is the local frame, marked, with the provider named', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '山门',
      text: '林动走进山门。山门很旧。雨下着。苏柔撑伞等他。她笑了。钟声响起。两人进殿。',
    });
    ({ workId } = saved.data as { workId: number });
    const { taskId: roleTask } = (await alice.post('/api/role/init_task', { type: 0, workId }))
      .data as TaskRef;
    for (const [name, description] of [
      ['林动', '十六岁少年，黑发，青色布衣'],
      ['苏柔', '白衣少女，长发，撑油纸伞'],
    ]) {
      const added = await alice.post('/api/role/add', { taskId: roleTask, name, description });
      expect(added.code).toBe(0);
      roles.push(added.data as Role);
    }

    const started = await alice.post('/api/video/gen_video', { workId });
    videoTaskId = (started.data as TaskRef).taskId;
    const result: WorkResult = await finishedWork(alice, workId, videoTaskId, 240_000);
    const task = await app.videoTasks.findTask(await userIdOf(alice), videoTaskId);
    await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs: task?.outputs.durationMs as number,
      spoken: ['林动走进山门。', '两人进殿。'],
    });

    const shots = task?.outputs.shotImages as Array<{
      index: number;
      image: string;
      engine: string;
      needsRegeneration: boolean;
      error: string | null;
    }>;
    expect(shots).toHaveLength(3);
    const host = new URL(fake.apiUrl).host;
    expect(shots[1]).toMatchObject({
      index: 1,
      engine: LOCAL_FALLBACK_LABEL,
      needsRegeneration: true,
    });
    expect(shots[1]?.error).toContain(`fake-image（${host}）`);
    expect(shots[1]?.error).toContain('服务出错（500）');
    expect(shots[1]?.error).toContain('GPU exploded');
    for (const i of [0, 2]) {
      expect(shots[i]).toMatchObject({
        engine: `fake-image（${host}）`,
        needsRegeneration: false,
        error: null,
      });
    }
    // The provider's (red) picture is what the good shots show; the failed one is not red.
    const [r0, g0, b0] = await meanColour(mediaFile(app, shots[0]?.image ?? ''));
    expect(r0).toBeGreaterThan(180);
    expect(g0 + b0).toBeLessThan(120);
    const [r1, g1, b1] = await meanColour(mediaFile(app, shots[1]?.image ?? ''));
    expect(r1 > 180 && g1 + b1 < 120).toBe(false);

    // The roles' fixed descriptions went into the prompts of the shots naming them.
    const prompts = fake.requests.map((r) => String(r.body.prompt));
    expect(prompts.find((p) => p.startsWith('林动走进山门'))).toContain(
      '林动（十六岁少年，黑发，青色布衣）',
    );
    expect(prompts.find((p) => p.startsWith('苏柔撑伞'))).toContain(
      '苏柔（白衣少女，长发，撑油纸伞）',
    );

    // The work carries the shots, so its page can offer to redraw the marked one.
    const work = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(work.shots.map((s) => s.needsRegeneration)).toEqual([false, true, false]);
    expect(work.shots[1]?.roleIds).toEqual([roles[1]?.roleId]);
    expect(work.shots[0]?.roleIds).toEqual([roles[0]?.roleId]);
    expect(work.shots[1]?.imageUrl).toBe(shots[1]?.image);
    // Each shot says who drew its picture: the pages tell a local stand-in from the service's.
    expect(work.shots.map((s) => s.imageEngine)).toEqual([
      `fake-image（${host}）`,
      LOCAL_FALLBACK_LABEL,
      `fake-image（${host}）`,
    ]);
  });

  it('redraws the marked shot with gen_img, and the next video keeps that picture', async () => {
    failing = null;
    const work = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    const started = await alice.post('/api/video/gen_img', {
      workId,
      shotIndex: 1,
      prompt: work.shots[1]?.imagePrompt ?? '',
    });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    const result = await imageResult(alice, taskId);
    expect(result).toMatchObject({ taskId, state: 'succeeded', error: null });
    expect(result.engine).toContain('fake-image');
    expect(result.imageUrl).toMatch(new RegExp(`/${taskId}/image\\.jpg$`));
    const picture = await app.inject({
      method: 'GET',
      url: result.imageUrl,
      headers: alice.headers,
    });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');

    const after = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(after.shots[1]).toMatchObject({
      imageUrl: result.imageUrl,
      needsRegeneration: false,
      imageEngine: result.engine,
    });
    // Still the video's result: an image task of the work is not its video.
    const progress = (await alice.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    expect(progress.taskId).toBe(videoTaskId);

    failing = '两人进殿';
    const again = await alice.get(`/api/video/regenerate_video?workId=${workId}`);
    const second = (again.data as TaskRef).taskId;
    await finishedWork(alice, workId, second, 240_000);
    const task = await app.videoTasks.findTask(await userIdOf(alice), second);
    const shots = task?.outputs.shotImages as Array<{ engine: string; needsRegeneration: boolean }>;
    // The kept picture is recorded with the engine that drew it (the shot says), not as an
    // unknown kept one.
    expect(shots.map((s) => s.engine)).toEqual([
      expect.stringContaining('fake-image'),
      result.engine,
      LOCAL_FALLBACK_LABEL,
    ]);
    failing = null;
  });

  it('draws a role’s shots from the portrait that became its reference picture (/images/edits)', async () => {
    failing = null;
    const su = roles[1];
    const started = await alice.post('/api/role/re_gen_img', {
      roleId: su?.roleId,
      prompt: '撑伞',
    });
    const portrait = await imageResult(alice, (started.data as TaskRef).taskId);
    expect(portrait.state).toBe('succeeded');
    const stored = await app.inject({
      method: 'GET',
      url: portrait.imageUrl,
      headers: alice.headers,
    });
    const work = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    const index = work.shots.findIndex((shot) => shot.caption.includes('苏柔'));
    expect(index).toBeGreaterThanOrEqual(0);
    const edits = fake.edits.length;
    const redraw = await alice.post('/api/video/gen_img', {
      workId,
      shotIndex: index,
      prompt: work.shots[index]?.imagePrompt ?? '',
    });
    expect((await imageResult(alice, (redraw.data as TaskRef).taskId)).state).toBe('succeeded');
    // The shot was drawn from her portrait, as stored: she keeps her face.
    expect(fake.edits).toHaveLength(edits + 1);
    expect(fake.edits.at(-1)?.images[0]?.equals(stored.rawPayload)).toBe(true);
    expect(fake.edits.at(-1)?.fields.prompt).toContain('苏柔（白衣少女');
  });

  it('draws a picture of a prompt alone, and keeps every id from another user', async () => {
    const started = await alice.post('/api/video/gen_img', { prompt: '雪山日出', imageStyleId: 2 });
    const { taskId } = started.data as TaskRef;
    const result = await imageResult(alice, taskId);
    expect(result.state).toBe('succeeded');
    expect(fake.requests.at(-1)?.body.prompt).toContain('水墨');

    expect((await bob.get(`/api/video/img_result?taskId=${taskId}`)).status).toBe(404);
    expect((await bob.get(`/api/video/img_result?taskId=${videoTaskId}`)).status).toBe(404);
    // A video task is not an image task, even for its owner.
    expect((await alice.get(`/api/video/img_result?taskId=${videoTaskId}`)).status).toBe(404);
    expect((await alice.get('/api/video/img_result?taskId=nope')).status).toBe(404);
    const other = await bob.post('/api/video/gen_img', { workId, shotIndex: 0, prompt: '山' });
    expect(other.status).toBe(404);
    expect(
      (await bob.post('/api/video/gen_img', { roleId: roles[0]?.roleId, prompt: '山' })).status,
    ).toBe(404);
    const missing = await alice.post('/api/video/gen_img', { workId, shotIndex: 9, prompt: '山' });
    expect(missing.status).toBe(400);
    expect(missing.msg).toBe('第 10 个分镜不存在');
    expect(
      (await alice.post('/api/video/gen_img', { prompt: '山', imageStyleId: 999 })).status,
    ).toBe(400);
    expect((await alice.post('/api/video/gen_img', { shotIndex: 0, prompt: '山' })).status).toBe(
      400,
    );
  });

  it('lists the configured engine before the local renderer', async () => {
    const engines = (await alice.get('/api/version/version_list')).data as Array<{ name: string }>;
    expect(engines.map((e) => e.name)).toEqual([
      `fake-image（${new URL(fake.apiUrl).host}）`,
      '本地画面（未配置图像服务）',
    ]);
  });
});
