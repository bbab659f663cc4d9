import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type {
  BookDetail,
  BookSummary,
  VideoServices,
  TaskRef,
  TextResult,
} from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { LOCAL_ENGINE_LABEL } from '../../src/writing/local/engine';
import { EMPTY_TEXT_MESSAGE, RESTART_MESSAGE } from '../../src/writing/tasks';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai';
import { signedInClient, type Client } from './helpers';
import { readStream, type SseEvent } from './sse-client';

let app: FastifyInstance;
let base: string;
let alice: Client;
let bob: Client;
let book: BookDetail;

beforeAll(async () => {
  ({ app } = await createTestApp());
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  const found = (
    await alice.get(`/api/writing/search?platformId=1&bookName=${encodeURIComponent('青灯照剑')}`)
  ).data as BookSummary[];
  book = (await alice.get(`/api/writing/search_cbid?cbid=${found[0]?.bookId}`)).data as BookDetail;
});
afterAll(async () => {
  await app.close();
});

const chapterIds = () => book.chapters.slice(0, 2).map((c) => c.chapterId);
const stream = (client: Client, taskId: string, onEvent?: (event: SseEvent) => void) =>
  readStream(`${base}/api/writing/gen_stream?taskId=${taskId}`, client.cookie, { onEvent });

async function waitForEnd(client: Client, taskId: string): Promise<TextResult> {
  for (let i = 0; i < 200; i++) {
    const result = (await client.get(`/api/writing/gen_result?taskId=${taskId}`))
      .data as TextResult;
    if (result.state !== 'queued' && result.state !== 'running') return result;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not end');
}

describe('generation with the local engine', () => {
  it('generate → the stream sends deltas then done; gen_result reads the same text from the database', async () => {
    const started = await alice.post('/api/writing/generate', {
      bookId: book.bookId,
      chapterIds: chapterIds(),
      kind: 'promo',
      tone: '热血',
      length: 300,
    });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    const { status, contentType, events } = await stream(alice, taskId);
    expect(status).toBe(200);
    expect(contentType).toContain('text/event-stream');
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(5);
    const last = events[events.length - 1];
    expect(last?.event).toBe('done');
    const result = (last?.data as { result: TextResult }).result;
    expect(result).toMatchObject({
      taskId,
      state: 'succeeded',
      engine: LOCAL_ENGINE_LABEL,
      error: null,
    });
    expect(deltas.map((e) => e.data.text).join('')).toBe(result.text);
    expect(result.text).toContain('林默');
    const fromDb = (await alice.get(`/api/writing/gen_result?taskId=${taskId}`)).data as TextResult;
    expect(fromDb).toEqual(result);
    // A late client gets the whole text as one delta, then done.
    const late = await stream(alice, taskId);
    expect(late.events.map((e) => e.event)).toEqual(['delta', 'done']);
    expect(late.events[0]?.data.text).toBe(result.text);
  });

  it('works from sourceText in a creative mode, through generate_async too', async () => {
    const started = await alice.post('/api/writing/generate_async', {
      sourceText: '1. 少年被逐出宗门\n2. 在山下小镇遇到神秘铁匠',
      mode: 'write',
      genre: '仙侠',
    });
    const { taskId } = started.data as TaskRef;
    const result = await waitForEnd(alice, taskId);
    expect(result.state).toBe('succeeded');
    expect(result.text).toContain('少年被逐出宗门');
    const same = (await alice.get(`/api/writing/get_generate_async_result?taskId=${taskId}`))
      .data as TextResult;
    expect(same.text).toBe(result.text);
  });

  it("without a text model: the services say so, a rewrite is the local engine's, line for line, and an empty text is a refusal", async () => {
    const services = await alice.get('/api/video/services');
    expect((services.data as VideoServices).text).toBeNull();
    // A reverse video's script: one subtitle cue per line, no end punctuation, a one-character cue.
    const script = '小猫突然醒了\n它看着窗外\n好\n然后又睡着了，非常安稳。';
    const { taskId } = (
      await alice.post('/api/writing/generate', {
        sourceText: script,
        kind: 'narration',
        mode: 'rewrite',
        length: 50,
      })
    ).data as TaskRef;
    const result = await waitForEnd(alice, taskId);
    expect(result).toMatchObject({ state: 'succeeded', engine: LOCAL_ENGINE_LABEL, error: null });
    // No blank line put between the cues, none dropped, each cue the same length or near it.
    const lines = result.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('好');
    lines.forEach((line, i) =>
      expect(Math.abs(line.length - (script.split('\n')[i] ?? '').length)).toBeLessThanOrEqual(4),
    );
    // A long script (a clip of several minutes) is no long wait either.
    const long = Array.from({ length: 600 }, (_, i) => `第${i}句字幕突然出现`).join('\n');
    const longStart = Date.now();
    const longTask = (
      await alice.post('/api/writing/generate', {
        sourceText: long,
        kind: 'narration',
        mode: 'rewrite',
        length: 10_000,
      })
    ).data as TaskRef;
    const longResult = await waitForEnd(alice, longTask.taskId);
    expect(longResult.state).toBe('succeeded');
    expect(longResult.text.split('\n')).toHaveLength(600);
    // 12 ms per 6 characters was 12 s for this one; the bound leaves room for a loaded CI machine.
    expect(Date.now() - longStart).toBeLessThan(8_000);
    // Nothing to write from: a refusal saying why, not an empty text.
    const empty = (
      await alice.post('/api/writing/generate', { sourceText: '……！', mode: 'expand' })
    ).data as TaskRef;
    expect(await waitForEnd(alice, empty.taskId)).toMatchObject({
      state: 'failed',
      text: '',
      error: EMPTY_TEXT_MESSAGE,
    });
  });

  it('validates the source', async () => {
    expect(await alice.post('/api/writing/generate', { kind: 'promo' })).toMatchObject({
      code: 400,
      msg: '请提供原文：选择书籍章节，或输入提示、大纲或文本',
    });
    expect(
      (await alice.post('/api/writing/generate', { bookId: book.bookId, chapterIds: [] })).msg,
    ).toBe('请至少选择一个章节');
    expect(
      (await alice.post('/api/writing/generate', { bookId: book.bookId, chapterIds: [999999] }))
        .code,
    ).toBe(404);
    expect(
      (await alice.post('/api/writing/generate', { bookId: 999999, chapterIds: [1] })).code,
    ).toBe(404);
  });

  it('cancel stops a running task and keeps its text', async () => {
    const { taskId } = (
      await alice.post('/api/writing/generate', {
        bookId: book.bookId,
        chapterIds: book.chapters.map((c) => c.chapterId),
        kind: 'narration',
        length: 3000,
      })
    ).data as TaskRef;
    let cancelled: Promise<unknown> | null = null;
    const { events } = await stream(alice, taskId, (event) => {
      if (event.event === 'delta' && String(event.data.text).length > 0 && !cancelled) {
        cancelled = alice.post('/api/writing/cancel', { taskId });
      }
    });
    expect(await cancelled).toMatchObject({ code: 0 });
    const last = events[events.length - 1];
    expect(last?.event).toBe('done');
    const result = (last?.data as { result: TextResult }).result;
    expect(result.state).toBe('cancelled');
    expect(result.text.length).toBeGreaterThan(0);
    const fromDb = (await alice.get(`/api/writing/gen_result?taskId=${taskId}`)).data as TextResult;
    expect(fromDb.state).toBe('cancelled');
    expect(fromDb.text).toBe(result.text);
    // Cancelling a finished task changes nothing.
    expect((await alice.post('/api/writing/cancel', { taskId })).code).toBe(0);
  });

  it("another user's task is not found, on every call", async () => {
    const { taskId } = (
      await alice.post('/api/writing/generate', {
        sourceText: '林默守着青灯。灯灭了。',
        kind: 'spoken',
      })
    ).data as TaskRef;
    expect((await bob.get(`/api/writing/gen_result?taskId=${taskId}`)).code).toBe(404);
    expect((await bob.post('/api/writing/cancel', { taskId })).code).toBe(404);
    const theirs = await app.inject({
      method: 'GET',
      url: `/api/writing/gen_stream?taskId=${taskId}`,
      headers: bob.headers,
    });
    expect(theirs.statusCode).toBe(404);
    expect((await bob.get(`/api/writing/gen_result?taskId=${randomUUID()}`)).code).toBe(404);
    expect((await bob.get('/api/writing/gen_result?taskId=not-a-uuid')).code).toBe(404);
    await waitForEnd(alice, taskId);
  });

  it('submit_tweets_task writes one text per chapter under its heading', async () => {
    const ids = book.chapters.slice(0, 3).map((c) => c.chapterId);
    const { taskId } = (
      await alice.post('/api/writing/submit_tweets_task', {
        bookId: book.bookId,
        chapterIds: ids,
        kind: 'promo',
        length: 150,
      })
    ).data as TaskRef;
    const result = await waitForEnd(alice, taskId);
    expect(result.state).toBe('succeeded');
    const headings = result.text.match(/^【.+】$/gm);
    expect(headings).toEqual(['【第一章 守灯人】', '【第二章 灯灭】', '【第三章 逐出山门】']);
  });

  it('a restart marks tasks left unfinished as failed, with a retry message', async () => {
    const { taskId: doneId } = (
      await alice.post('/api/writing/generate', { sourceText: '林默守着青灯。', kind: 'spoken' })
    ).data as TaskRef;
    await waitForEnd(alice, doneId);
    // Rows as a dead process leaves them: running with some text, and queued.
    const owner = await app.db
      .selectFrom('writing_tasks')
      .select('user_id')
      .where('id', '=', doneId)
      .executeTakeFirstOrThrow();
    const running = randomUUID();
    const queued = randomUUID();
    await app.db
      .insertInto('writing_tasks')
      .values([
        {
          id: running,
          user_id: owner.user_id,
          kind: 'generate',
          input: '{}',
          state: 'running',
          text: '写到一半',
        },
        { id: queued, user_id: owner.user_id, kind: 'generate', input: '{}', state: 'queued' },
      ])
      .execute();
    const restarted = await createTestApp({ writingTaskStaleMs: 0 });
    try {
      for (const id of [running, queued]) {
        const result = (await alice.get(`/api/writing/gen_result?taskId=${id}`)).data as TextResult;
        expect(result).toMatchObject({ state: 'failed', error: RESTART_MESSAGE });
      }
      expect(
        ((await alice.get(`/api/writing/gen_result?taskId=${running}`)).data as TextResult).text,
      ).toBe('写到一半');
      expect(
        ((await alice.get(`/api/writing/gen_result?taskId=${doneId}`)).data as TextResult).state,
      ).toBe('succeeded');
      // The stream of a failed task says so.
      const { events } = await stream(alice, running);
      expect(events.map((e) => e.event)).toEqual(['delta', 'error']);
      expect(events[1]?.data.message).toBe(RESTART_MESSAGE);
    } finally {
      await restarted.app.close();
    }
  });
});

describe('generation through an OpenAI-compatible provider', () => {
  let fake: FakeOpenAi;
  let llmApp: FastifyInstance;
  let llmBase: string;
  let carol: Client;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    ({ app: llmApp } = await createTestApp({
      llm: {
        baseUrl: fake.baseUrl,
        apiKey: 'sk-test',
        model: 'fake-model',
        timeoutMs: 2_000,
        maxRetries: 0,
      },
    }));
    await llmApp.listen({ port: 0, host: '127.0.0.1' });
    llmBase = `http://127.0.0.1:${(llmApp.server.address() as AddressInfo).port}`;
    carol = await signedInClient(llmApp);
  });
  afterAll(async () => {
    await llmApp.close();
    await fake.close();
  });

  it("streams the model's tokens as they come, under the model's name", async () => {
    expect(((await carol.get('/api/video/services')).data as VideoServices).text).not.toBeNull();
    fake.script.push({ type: 'stream', tokens: ['林默', '被逐出', '山门', '。'], delayMs: 50 });
    const { taskId } = (
      await carol.post('/api/writing/generate', {
        bookId: book.bookId,
        chapterIds: chapterIds(),
        kind: 'promo',
      })
    ).data as TaskRef;
    const { events } = await readStream(
      `${llmBase}/api/writing/gen_stream?taskId=${taskId}`,
      carol.cookie,
    );
    const texts = events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .filter(Boolean);
    expect(texts).toEqual(['林默', '被逐出', '山门', '。']);
    const result = (events[events.length - 1]?.data as { result: TextResult }).result;
    expect(result).toMatchObject({
      state: 'succeeded',
      text: '林默被逐出山门。',
      engine: 'fake-model（127.0.0.1:' + new URL(fake.baseUrl).port + '）',
    });
  });

  it('a provider failure fails the task with its Chinese message', async () => {
    fake.script.push({ type: 'error', status: 402, message: 'Insufficient Balance' });
    const { taskId } = (
      await carol.post('/api/writing/generate', { sourceText: '一段原文。', kind: 'spoken' })
    ).data as TaskRef;
    const { events } = await readStream(
      `${llmBase}/api/writing/gen_stream?taskId=${taskId}`,
      carol.cookie,
    );
    expect(events[events.length - 1]?.event).toBe('error');
    expect(String(events[events.length - 1]?.data.message)).toContain('余额不足');
    const result = (await carol.get(`/api/writing/gen_result?taskId=${taskId}`)).data as TextResult;
    expect(result.state).toBe('failed');
    expect(result.error).toContain('fake-model');
    expect(result.error).toContain('余额不足');
  });
});
