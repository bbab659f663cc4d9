import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { TaskRef, TextResult, WorkDetail, WorkResult } from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { startFakeOpenAi, type FakeOpenAi } from '../writing/fake-openai';
import { signedInClient, type Client } from '../writing/helpers';
import { readStream } from '../writing/sse-client';
import { expectProvenVideo, renderingTasks } from './proof';

// Real espeak-ng and ffmpeg at a small size; a test Chat Completions server translates.
jest.setTimeout(180_000);

let app: FastifyInstance;
let fake: FakeOpenAi;
let base: string;
let alice: Client;
let bob: Client;

const userIdOf = async (client: Client) =>
  ((await client.get('/api/user/current')).data as { userId: number }).userId;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  ({ app } = await createTestApp({
    llm: {
      baseUrl: fake.baseUrl,
      apiKey: 'sk-test',
      model: 'fake-model',
      timeoutMs: 5_000,
      maxRetries: 0,
    },
    videoTasks: renderingTasks(),
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  await app.quotaService.grant(await userIdOf(alice), 'comicsOverseas', { gen: 1 });
  await app.quotaService.grant(await userIdOf(alice), 'comics', { gen: 1 });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

describe('overseas comics (type 5) with progress pushed to the browser', () => {
  it('translates a Chinese text, speaks it in English, and streams progress to the end', async () => {
    const saved = await alice.post('/api/video/save_text', {
      type: 5,
      title: '海外版',
      text: '从前有座山。山里有座庙。',
    });
    const { workId } = saved.data as { workId: number };
    // The first answer is broken: the script stage re-asks and takes the valid one.
    fake.script.push(
      { type: 'message', content: '{"sentences": ["Once there was a mountain.",' },
      {
        type: 'message',
        content: '{"sentences": ["Once there was a mountain.", "A temple stood on it."]}',
      },
    );
    const started = await alice.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;

    const { status, contentType, events } = await readStream(
      `${base}/api/video/progress_stream?workId=${workId}`,
      alice.cookie,
      { timeoutMs: 150_000 },
    );
    expect(status).toBe(200);
    expect(contentType).toContain('text/event-stream');
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeGreaterThan(2);
    // Percentages only grow, and the stages follow the pipeline's order.
    const percents = progress.map((e) => Number(e.data.progress));
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(new Set(progress.map((e) => String(e.data.stage)))).toContain('compose');
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    const result = done?.data as unknown as WorkResult;
    expect(result).toMatchObject({ taskId, state: 'succeeded', progress: 100 });

    const voice = await app.db
      .selectFrom('video_task_stages')
      .select('outputs')
      .where('task_id', '=', taskId)
      .where('name', '=', 'voice')
      .executeTakeFirstOrThrow();
    const { cues } = await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      spoken: ['Once there was a mountain.', 'A temple stood on it.'],
      speechMs: (voice.outputs as { durationMs: number }).durationMs,
    });
    expect(cues.map((c) => c.text).join(' ')).not.toMatch(/[\u3400-\u9fff]/);
  });

  it('answers done at once for a work with nothing running, and 404 for another user', async () => {
    const saved = await alice.post('/api/video/save_text', { title: '空', text: '你好。' });
    const { workId } = saved.data as { workId: number };
    const { events } = await readStream(
      `${base}/api/video/progress_stream?workId=${workId}`,
      alice.cookie,
    );
    expect(events.map((e) => e.event)).toEqual(['done']);
    expect(events[0]?.data).toMatchObject({ taskId: null });
    const other = await readStream(
      `${base}/api/video/progress_stream?workId=${workId}`,
      bob.cookie,
    );
    expect(other.status).toBe(404);
  });
});

describe('cancel', () => {
  it('stops the caller’s running task without giving the count back; others get 404', async () => {
    const erin = await signedInClient(app);
    const erinId = await userIdOf(erin);
    await app.quotaService.grant(erinId, 'comics', { gen: 1 });
    const saved = await erin.post('/api/video/save_text', {
      title: '取消',
      text: '第一句。第二句。第三句。第四句。第五句。第六句。',
    });
    const { workId } = saved.data as { workId: number };
    const { taskId } = (await erin.post('/api/video/gen_video', { workId })).data as TaskRef;
    expect((await bob.post('/api/video/cancel_task', { taskId })).status).toBe(404);
    expect((await erin.post('/api/video/cancel_task', { taskId: 'not-a-task' })).status).toBe(404);
    const cancelled = await erin.post('/api/video/cancel_task', { taskId });
    expect(cancelled.code).toBe(0);
    const result = (await erin.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    expect(result).toMatchObject({ taskId, state: 'cancelled' });
    expect(await app.quotaService.counts(erinId, 'comics')).toMatchObject({ gen: 0 });
    expect((await erin.post('/api/video/cancel_task', { taskId })).status).toBe(409);
    // The work is free again: a new start is accepted (and refused only for the count).
    expect((await erin.post('/api/video/gen_video', { workId })).status).toBe(402);
  });
});

describe('words a platform may flag', () => {
  it('refuses gen_video before spending, naming each word and its replacement', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '广告',
      text: '这是全网第一的好书，加微信领取。',
    });
    const { workId } = saved.data as { workId: number };
    const refused = await alice.post('/api/video/gen_video', { workId });
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('「全网第一」');
    expect(refused.msg).toMatch(/微信/);
    expect(await app.quotaService.counts(await userIdOf(alice), 'comics')).toMatchObject({
      gen: 1,
    });
  });
});

describe('the type’s template id', () => {
  it('refuses a video of a type whose works item the user lacks, spending nothing', async () => {
    const carol = await signedInClient(app, { templateIds: [0, 2] });
    const carolId = await userIdOf(carol);
    await app.quotaService.grant(carolId, 'comics', { gen: 1 });
    const saved = await carol.post('/api/video/save_text', { title: '无权限', text: '你好。' });
    const { workId } = saved.data as { workId: number };
    const refused = await carol.post('/api/video/gen_video', { workId });
    expect(refused.status).toBe(403);
    expect(refused.msg).toBe('你没有使用「漫剪视频」的权限');
    expect(await app.quotaService.counts(carolId, 'comics')).toMatchObject({ gen: 1 });
    const generate = await carol.post('/api/video/generate', { type: 0, sourceText: '原文。' });
    expect(generate.status).toBe(403);
    // Reverse videos also need a functional level above 0.
    const dave = await signedInClient(app, { functionalLevel: 0 });
    const convert = await dave.post('/api/video/generate', { type: 3, sourceText: '原文。' });
    expect(convert.status).toBe(403);
    expect(convert.msg).toBe('你没有使用「反推视频」的权限');
  });
});

describe('video/generate', () => {
  it('makes a work of the source and writes its script as a writing task', async () => {
    fake.script.push({ type: 'stream', tokens: ['第一句解说。', '第二句解说。'] });
    const answer = await alice.post('/api/video/generate', {
      type: 0,
      sourceText: '林舟推开客栈的门，雨下得很大。',
      settings: { aspect: '16:9' },
    });
    expect(answer.code).toBe(0);
    const { workId, taskId } = answer.data as { workId: number; taskId: string };
    const work = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(work).toMatchObject({ type: 0, text: '林舟推开客栈的门，雨下得很大。' });
    expect(work.settings.aspect).toBe('16:9');
    const script = await waitFor(async () => {
      const result = (await alice.get(`/api/writing/gen_result?taskId=${taskId}`))
        .data as TextResult;
      return result.state === 'succeeded' ? result : null;
    });
    expect(script.text).toBe('第一句解说。第二句解说。');
    expect((await bob.get(`/api/writing/gen_result?taskId=${taskId}`)).status).toBe(404);
  });
});
