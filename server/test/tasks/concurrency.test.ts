import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { signedInClient, type Client } from '../writing/helpers';
import { waitFor } from './helpers';

/**
 * Issue 11, finding 1: many requests at once must each get their own, right answer, on
 * PGlite exactly as on PostgreSQL. Before the embedded database took statements and
 * transactions in turn, 50 parallel gen_video calls answered 500s ("portal does not exist",
 * wrong prepared statements), read other queries' rows, and left tasks charged but never run.
 */
jest.setTimeout(300_000);

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: {
      workInProcess: true,
      concurrency: 2,
      pollingIntervalSeconds: 0.5,
      workDir: path.join(testDataDir(), 'tasks'),
    },
  }));
  // The start, the spend, the job and the run are under test, not the picture making: a
  // comics video here is one quick stage.
  app.videoPipelines.register(0, [
    {
      name: 'script',
      async run() {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { videoUrl: '/media/none.mp4' };
      },
    },
  ]);
});
afterAll(async () => {
  await app.close();
});

/** Answers within `ms`, or fails the test: a request that never answers is a defect too. */
async function answered<T>(call: Promise<T>, ms = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function userId(client: Client): Promise<number> {
  return ((await client.get('/api/user/current')).data as { userId: number }).userId;
}

describe('50 concurrent gen_video on 50 works with a comics quota of 3', () => {
  it('answers 0, 402 or 409 only, spends exactly 3, and runs every started task, 20 times over', async () => {
    const tally = { started: 0, usedUp: 0, busy: 0, other: [] as string[] };
    for (let round = 0; round < 20; round += 1) {
      const client = await signedInClient(app);
      const id = await userId(client);
      await app.quotaService.grant(id, 'comics', { gen: 3 });
      const works = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          app.works.create(id, { type: 0, title: `作品${i}`, text: '从前有座山。山里有座庙。' }),
        ),
      );
      const answers = await Promise.all(
        works.map((workId) => answered(client.post('/api/video/gen_video', { workId }))),
      );
      const started: string[] = [];
      for (const answer of answers) {
        if (answer.code === 0) {
          tally.started += 1;
          started.push((answer.data as { taskId: string }).taskId);
        } else if (answer.code === 402) tally.usedUp += 1;
        else if (answer.code === 409) tally.busy += 1;
        else tally.other.push(`${answer.status} ${answer.code} ${answer.msg}`);
      }
      expect(tally.other).toEqual([]);
      expect(started).toHaveLength(3);
      expect(await app.quotaService.counts(id, 'comics')).toMatchObject({ gen: 0, reward: 0 });
      // Every task answered "started" runs to its end: none is left queued without a job.
      await waitFor(async () => {
        const tasks = await app.db
          .selectFrom('video_tasks')
          .select(['id', 'state'])
          .where('user_id', '=', id)
          .execute();
        return tasks.length === 3 && tasks.every((task) => task.state === 'succeeded');
      }, 60_000);
    }
    console.log(
      `concurrent gen_video, 20 rounds of 50: ${tally.started} started, ${tally.usedUp} count used up, ` +
        `${tally.busy} busy, ${tally.other.length} other answers`,
    );
  });
});

describe('mixed reads and writes of several users at once', () => {
  it('gives every user their own rows and counts, and nobody else’s', async () => {
    const users = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const client = await signedInClient(app);
        const id = await userId(client);
        // A merge count that tells the users apart in get_user_limit_info, and generation
        // counts that run out half way through the load.
        await app.quotaService.grant(id, 'comics', { gen: 10 + i, merge: 100 + i });
        return {
          client,
          id,
          gen: 10 + i,
          merge: 100 + i,
          started: 0,
          works: new Map<number, string>(),
        };
      }),
    );
    const wrong: string[] = [];
    const calls: Array<Promise<void>> = [];
    for (let step = 0; step < 40; step += 1) {
      for (const [index, user] of users.entries()) {
        const other = users[(index + 1) % users.length];
        calls.push(
          (async () => {
            const title = `用户${user.id}的第${step}篇`;
            const saved = await answered(
              user.client.post('/api/video/save_text', { title, text: `${title}的正文。` }),
            );
            if (saved.code !== 0) return void wrong.push(`save_text ${saved.code} ${saved.msg}`);
            const { workId } = saved.data as { workId: number };
            user.works.set(workId, title);
            const info = await answered(user.client.get(`/api/video/work_info?workId=${workId}`));
            if (info.code !== 0 || (info.data as { title: string }).title !== title) {
              wrong.push(`work_info ${workId}: ${info.code} ${JSON.stringify(info.data)}`);
            }
            // Another user asking for this work: not found, never its content.
            const theirs = await answered(
              other?.client.get(`/api/video/work_info?workId=${workId}`) ??
                Promise.reject(new Error('no other user')),
            );
            if (theirs.code !== 404) wrong.push(`foreign work_info ${workId}: ${theirs.code}`);
            const limits = await answered(user.client.get('/api/user/get_user_limit_info'));
            if ((limits.data as { remainMergeCount: number }).remainMergeCount !== user.merge) {
              wrong.push(`limits of ${user.id}: ${JSON.stringify(limits.data)}`);
            }
            const started = await answered(user.client.post('/api/video/gen_video', { workId }));
            if (started.code === 0) user.started += 1;
            else if (started.code !== 402) wrong.push(`gen_video ${started.code} ${started.msg}`);
            const updated = await answered(
              user.client.edit('/api/video/update_text', {
                workId,
                title: `${title}（改）`,
                text: '改过的正文。',
              }),
            );
            if (updated.code !== 0) wrong.push(`update_text ${updated.code} ${updated.msg}`);
            else user.works.set(workId, `${title}（改）`);
          })(),
        );
      }
    }
    await Promise.all(calls);
    expect(wrong).toEqual([]);
    for (const user of users) {
      const rows = await app.db
        .selectFrom('works')
        .select(['id', 'title'])
        .where('user_id', '=', user.id)
        .execute();
      expect(new Map(rows.map((row) => [row.id, row.title]))).toEqual(user.works);
      // Each of the user's generation counts started exactly one video.
      expect(user.started).toBe(user.gen);
      expect(await app.quotaService.counts(user.id, 'comics')).toMatchObject({
        gen: 0,
        merge: user.merge,
      });
    }
  });
});
