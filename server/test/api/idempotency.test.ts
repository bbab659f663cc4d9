import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { createTestApp } from '../helpers/test-app';
import { multipart, signedInClient, type Client } from '../writing/helpers';

/**
 * Issue 29, part 3: a double click, a retry after a lost answer, or the same call from another
 * tab must not create twice. The create calls honour an `Idempotency-Key`: same user, same key
 * and same route answer the first call's answer, in turn or at once, on PGlite as on PostgreSQL.
 * No video task is worked in this process: a started task stays queued, so a second start would
 * be refused as busy, and every spent count stays spent.
 */

let app: FastifyInstance;
let seq = 0;

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

const MISMATCH =
  '这个请求编号（Idempotency-Key）已用于内容不同的另一次操作，本次未执行。请刷新页面后重新操作';

/** A key no other test uses (keys are per user and route, but one user may run several). */
const freshKey = () => `test-key-${Date.now().toString(36)}-${(seq += 1)}`;

interface Answer {
  status: number;
  code: number;
  msg: string;
  data: unknown;
  replayed: boolean;
  raw: string;
}

function answerOf(response: LightMyRequestResponse): Answer {
  const body = response.json<{ code: number; msg: string; data: unknown }>();
  return {
    status: response.statusCode,
    ...body,
    replayed: response.headers['idempotent-replayed'] === 'true',
    raw: response.body,
  };
}

async function post(client: Client, url: string, payload: object, key?: string): Promise<Answer> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { ...client.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
  return answerOf(response);
}

async function userIdOf(client: Client): Promise<number> {
  return ((await client.get('/api/user/current')).data as { userId: number }).userId;
}

async function worksOf(userId: number) {
  return app.db
    .selectFrom('works')
    .select(['id', 'title', 'text'])
    .where('user_id', '=', userId)
    .execute();
}

async function tasksOf(workId: number) {
  return app.db.selectFrom('video_tasks').select(['id']).where('work_id', '=', workId).execute();
}

/** A creator with `gen` comics counts and one saved comics work. */
async function creatorWithWork(gen: number) {
  const client = await signedInClient(app);
  const userId = await userIdOf(client);
  await app.quotaService.grant(userId, 'comics', { gen });
  const workId = await app.works.create(userId, {
    type: 0,
    title: '雾港来信',
    text: '雾从港口漫上来。她拆开那封信。',
  });
  return { client, userId, workId };
}

describe('save_text with an Idempotency-Key', () => {
  it('twice with one key makes one work, and the repeat gets the same answer', async () => {
    const client = await signedInClient(app);
    const userId = await userIdOf(client);
    const key = freshKey();
    const payload = { type: 1, title: '雾港来信', text: '雾从港口漫上来。' };
    const first = await post(client, '/api/video/save_text', payload, key);
    const second = await post(client, '/api/video/save_text', payload, key);
    expect(first.code).toBe(0);
    expect(second.raw).toBe(first.raw);
    expect(second.replayed).toBe(true);
    expect(await worksOf(userId)).toHaveLength(1);
  });

  it('eight at once with one key make one work, and all eight answer it', async () => {
    const client = await signedInClient(app);
    const userId = await userIdOf(client);
    const key = freshKey();
    const payload = { type: 1, title: '同时八次', text: '深呼吸，放松肩膀。' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(client, '/api/video/save_text', payload, key)),
    );
    expect(answers.map((a) => a.code)).toEqual(Array(8).fill(0));
    expect(new Set(answers.map((a) => a.raw)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(await worksOf(userId)).toHaveLength(1);
  });

  it('refuses the same key with another body, in Chinese, and creates nothing more', async () => {
    const client = await signedInClient(app);
    const userId = await userIdOf(client);
    const key = freshKey();
    const first = await post(
      client,
      '/api/video/save_text',
      { title: '第一篇', text: '第一篇的正文。' },
      key,
    );
    expect(first.code).toBe(0);
    const other = await post(
      client,
      '/api/video/save_text',
      { title: '第二篇', text: '另一篇的正文。' },
      key,
    );
    expect(other).toMatchObject({ status: 422, code: 422, msg: MISMATCH, data: null });
    expect((await worksOf(userId)).map((w) => w.title)).toEqual(['第一篇']);
  });

  it('keeps each user’s keys apart: another user with the same key makes their own work', async () => {
    const alice = await signedInClient(app);
    const bob = await signedInClient(app);
    const key = freshKey();
    const payload = { title: '同一个编号', text: '同样的正文。' };
    const a1 = await post(alice, '/api/video/save_text', payload, key);
    const a2 = await post(alice, '/api/video/save_text', payload, key);
    const b1 = await post(bob, '/api/video/save_text', payload, key);
    expect(a2.raw).toBe(a1.raw);
    expect(b1.code).toBe(0);
    expect(b1.replayed).toBe(false);
    expect((b1.data as { workId: number }).workId).not.toBe((a1.data as { workId: number }).workId);
    expect(await worksOf(await userIdOf(alice))).toHaveLength(1);
    expect(await worksOf(await userIdOf(bob))).toHaveLength(1);
  });

  it('forgets a key once it expired: the call runs again, and the sweep deletes old keys', async () => {
    const client = await signedInClient(app);
    const userId = await userIdOf(client);
    const key = freshKey();
    const payload = { title: '十分钟后', text: '再来一次。' };
    await post(client, '/api/video/save_text', payload, key);
    // Ten minutes pass for this key.
    await app.db
      .updateTable('idempotency_keys')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', userId)
      .execute();
    const later = await post(client, '/api/video/save_text', payload, key);
    expect(later).toMatchObject({ code: 0, replayed: false });
    expect(await worksOf(userId)).toHaveLength(2);

    await app.db
      .updateTable('idempotency_keys')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', userId)
      .execute();
    expect(await app.repos.idempotencyKeys.sweep()).toBeGreaterThanOrEqual(1);
    const left = await app.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('user_id', '=', userId)
      .execute();
    expect(left).toEqual([]);
  });

  it('refuses a malformed key before doing anything', async () => {
    const client = await signedInClient(app);
    const userId = await userIdOf(client);
    const answer = await post(
      client,
      '/api/video/save_text',
      { title: '标题', text: '正文。' },
      '含中文的编号',
    );
    expect(answer).toMatchObject({ status: 400, code: 400 });
    expect(answer.msg).toContain('Idempotency-Key');
    expect(await worksOf(userId)).toHaveLength(0);
  });
});

describe('gen_video with an Idempotency-Key', () => {
  it('twice with one key starts one task and spends one count; both answer that task', async () => {
    const { client, userId, workId } = await creatorWithWork(2);
    const key = freshKey();
    const first = await post(client, '/api/video/gen_video', { workId }, key);
    const second = await post(client, '/api/video/gen_video', { workId }, key);
    expect(first.code).toBe(0);
    expect(second).toMatchObject({ code: 0, replayed: true, raw: first.raw });
    expect(await tasksOf(workId)).toHaveLength(1);
    expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 1 });
  });

  it('six at once with one key start one task and spend one count; all six answer it', async () => {
    const { client, userId, workId } = await creatorWithWork(3);
    const key = freshKey();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(client, '/api/video/gen_video', { workId }, key)),
    );
    expect(answers.map((a) => `${a.code} ${a.msg}`)).toEqual(Array(6).fill('0 成功'));
    expect(new Set(answers.map((a) => a.raw)).size).toBe(1);
    expect(await tasksOf(workId)).toHaveLength(1);
    expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 2 });
  });

  it('frees the key of a refused call, so the retry does the work, and a repeat replays it', async () => {
    const { client, userId, workId } = await creatorWithWork(0);
    const key = freshKey();
    const refused = await post(client, '/api/video/gen_video', { workId }, key);
    expect(refused.code).toBe(402);
    await app.quotaService.grant(userId, 'comics', { gen: 1 });
    const retried = await post(client, '/api/video/gen_video', { workId }, key);
    expect(retried).toMatchObject({ code: 0, replayed: false });
    const repeated = await post(client, '/api/video/gen_video', { workId }, key);
    expect(repeated).toMatchObject({ code: 0, replayed: true, raw: retried.raw });
    expect(await tasksOf(workId)).toHaveLength(1);
    expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
  });

  // Without keys (an older page, a script), the unique index on a work's unfinished video task
  // decides: one start, one spent count, the others told the work is busy.
  it('eight at once WITHOUT keys on one work start one task and spend one count', async () => {
    const { client, userId, workId } = await creatorWithWork(5);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(client, '/api/video/gen_video', { workId })),
    );
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.code !== 0).map((a) => a.code)).toEqual(Array(7).fill(409));
    expect(await tasksOf(workId)).toHaveLength(1);
    expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 4 });
  });
});

describe('two API processes on one database', () => {
  it('honour one key together: a double click split across them makes one work', async () => {
    // Another app over the same database (the same schema on PostgreSQL): another process.
    const { app: other } = await createTestApp();
    try {
      const client = await signedInClient(app);
      const userId = await userIdOf(client);
      const key = freshKey();
      const payload = { type: 1, title: '两个进程', text: '同一次点击，两次送达。' };
      const viaOther = async () =>
        answerOf(
          await other.inject({
            method: 'POST',
            url: '/api/video/save_text',
            headers: { ...client.headers, 'idempotency-key': key },
            payload,
          }),
        );
      const answers = await Promise.all([
        post(client, '/api/video/save_text', payload, key),
        viaOther(),
        post(client, '/api/video/save_text', payload, key),
        viaOther(),
      ]);
      expect(answers.map((a) => a.code)).toEqual([0, 0, 0, 0]);
      expect(new Set(answers.map((a) => a.raw)).size).toBe(1);
      expect(await worksOf(userId)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('an upload with an Idempotency-Key', () => {
  it('sent twice with one key is kept once, and both answers name the same file', async () => {
    const client = await signedInClient(app);
    const canvas = createCanvas(32, 24);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#2d6cdf';
    ctx.fillRect(0, 0, 32, 24);
    const png = canvas.toBuffer('image/png');
    const key = freshKey();
    const send = async () => {
      const form = multipart('cover.png', png);
      return answerOf(
        await app.inject({
          method: 'POST',
          url: '/api/file/upload_image',
          headers: { ...client.headers, 'content-type': form.contentType, 'idempotency-key': key },
          payload: form.payload,
        }),
      );
    };
    const first = await send();
    const second = await send();
    expect(first.code).toBe(0);
    expect(second.raw).toBe(first.raw);
    const listed = await client.get('/api/file/uploaded_imgs');
    expect((listed.data as { total: number }).total).toBe(1);
  });
});
