import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { unzipSync, strFromU8 } from 'fflate';
import type {
  BookDetail,
  BookSummary,
  Role,
  SeriesDetail,
  SeriesPlan,
  SeriesSummary,
  WorkSummary,
} from '@kol/shared-sdk/contracts';
import { ErrorCode, SERIES_MAX_EPISODES } from '@kol/shared-sdk/contracts';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { signedInClient, type Client } from '../writing/helpers';
import { taskService, untilAborted, waitFor } from '../tasks/helpers';
import type { StageHandler } from '../../src/tasks/types';
import type { VideoTaskService } from '../../src/tasks/service';

// The series run on a test pipeline (type 0) that renders in a fraction of a second and writes
// a small "video" and SRT to the media store: what is tested is which episode starts when, the
// counts, the cast, a dead worker and the archive, not the rendering (test/video/ has that).
// The workers are services of their own, as worker processes are: the series learns of their
// tasks' ends through its poll of the database.

let app: FastifyInstance;
let book: BookDetail;
/** How long a test render takes, per work (default RENDER_MS). */
const renderMs = new Map<number, number>();
const RENDER_MS = 150;
/** Works whose render fails once (the next run succeeds). */
const failOnce = new Set<number>();
/** Works whose render hangs on its first attempt until its worker dies. */
const hangOnce = new Set<number>();
/** Renders running now, by user: the most of one user at once. */
const running = new Map<number, number>();
const mostAtOnce = new Map<number, number>();
/** Renders finished, in order, as [userId, workId, end time]. */
const rendered: Array<[number, number, number]> = [];

const pipeline: StageHandler[] = [
  {
    name: 'script',
    async run(ctx) {
      const work = await app.works.find(ctx.task.userId, ctx.task.workId ?? 0);
      return { text: work?.text ?? '' };
    },
  },
  {
    name: 'compose',
    async run(ctx) {
      const { userId, workId, id } = ctx.task;
      if (workId === null) throw new Error('no work');
      if (hangOnce.has(workId) && ctx.attempt === 1) return untilAborted(ctx.signal);
      const now = (running.get(userId) ?? 0) + 1;
      running.set(userId, now);
      mostAtOnce.set(userId, Math.max(mostAtOnce.get(userId) ?? 0, now));
      try {
        await new Promise((resolve) => setTimeout(resolve, renderMs.get(workId) ?? RENDER_MS));
        if (failOnce.delete(workId)) throw new Error('画面服务暂时不可用');
        const text = String(ctx.outputs.script?.text ?? '');
        const key = `${userId}/${id}`;
        await app.stores.media.putBytes(`${key}/video.mp4`, `video of work ${workId}: ${text}`);
        await app.stores.media.putBytes(
          `${key}/video.srt`,
          `1\n00:00:00,000 --> 00:00:01,000\n${text.slice(0, 20)}\n`,
        );
        rendered.push([userId, workId, Date.now()]);
        return {
          videoUrl: `/media/${key}/video.mp4`,
          srtUrl: `/media/${key}/video.srt`,
          coverUrl: `/media/${key}/cover.jpg`,
          videoDurationMs: 1000,
        };
      } finally {
        running.set(userId, (running.get(userId) ?? 1) - 1);
      }
    },
  },
];

const workers: VideoTaskService[] = [];
async function startWorker(concurrency = 2): Promise<VideoTaskService> {
  const worker = taskService(app, app.videoPipelines, {
    concurrency,
    leaseMs: 2_000,
    workDir: path.join(testDataDir(), `worker-${workers.length}`),
  });
  workers.push(worker);
  await worker.startWorker();
  return worker;
}

beforeAll(async () => {
  ({ app } = await createTestApp({
    series: { episodesPerUser: 1, pollMs: 100 },
  }));
  app.videoPipelines.register(0, pipeline);
  await startWorker();
  const probe = await signedInClient(app);
  const found = await probe.get(
    `/api/writing/search?platformId=1&bookName=${encodeURIComponent('青灯')}`,
  );
  const summary = (found.data as BookSummary[])[0];
  book = (await probe.get(`/api/writing/search_cbid?cbid=${summary?.bookId}`)).data as BookDetail;
});
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await app.close();
});

async function creator(counts = 10): Promise<{ client: Client; userId: number }> {
  const client = await signedInClient(app);
  const user = await app.users.findByUsername(client.username);
  if (!user) throw new Error('no user');
  await app.quotaService.grant(user.id, 'comics', { gen: counts });
  return { client, userId: user.id };
}

const bookSource = (fromChapter: number, toChapter: number) => ({
  kind: 'book' as const,
  bookId: book.bookId,
  fromChapter,
  toChapter,
});

async function createSeries(
  client: Client,
  fromChapter: number,
  toChapter: number,
  narration: 'chapter' | 'promo' = 'chapter',
): Promise<SeriesDetail> {
  const body = { type: 0, source: bookSource(fromChapter, toChapter), narration };
  const plan = await client.post('/api/series/plan', body);
  expect(plan.code).toBe(0);
  const { episodes, title } = plan.data as SeriesPlan;
  const created = await client.post('/api/series/create', {
    ...body,
    title,
    episodeTitles: episodes.map((e) => e.title),
    settings: { aspect: '9:16' },
  });
  expect(created.msg).toBe('成功');
  return created.data as SeriesDetail;
}

const detailOf = async (client: Client, seriesId: number) =>
  (await client.get(`/api/series/detail?seriesId=${seriesId}`)).data as SeriesDetail;

const settled = (client: Client, seriesId: number, timeoutMs = 30_000) =>
  waitFor(async () => {
    const series = await detailOf(client, seriesId);
    return series.state === 'finished' ||
      (series.state === 'cancelled' &&
        series.episodes.every((e) => !['queued', 'running'].includes(e.state)))
      ? series
      : null;
  }, timeoutMs);

const gen = async (userId: number) => (await app.quotaService.counts(userId, 'comics')).gen;

describe('series', () => {
  it('plans, reads one cast, and makes 5 episodes from a library book, one count each, one at a time', async () => {
    const { client, userId } = await creator(10);
    const plan = (
      await client.post('/api/series/plan', {
        type: 0,
        source: bookSource(1, 5),
        narration: 'chapter',
      })
    ).data as SeriesPlan;
    expect(plan).toMatchObject({
      title: '青灯照剑',
      countsNeeded: 5,
      countsLeft: 10,
      maxEpisodes: SERIES_MAX_EPISODES,
    });
    expect(plan.episodes.map((e) => e.title)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `青灯照剑 第${n}集`),
    );
    expect(plan.episodes[0]?.sourceTitle).toBe('第一章 守灯人');
    expect(plan.estimatedSeconds).toBeGreaterThan(0);
    // Planning spends and creates nothing.
    expect(await gen(userId)).toBe(10);

    const draft = await createSeries(client, 1, 5);
    expect(draft).toMatchObject({ state: 'draft', episodes: expect.any(Array), reservedCounts: 0 });
    expect(draft.episodes.map((e) => e.state)).toEqual(Array(5).fill('pending'));
    expect(await gen(userId)).toBe(10);

    // The cast is read once across the chapters, and reviewed: a name fixed.
    const cast = (await client.get(`/api/role/get_roles?taskId=${draft.castTaskId}`))
      .data as Role[];
    expect(cast.length).toBeGreaterThan(0);
    const first = cast[0] as Role;
    const fixed = await client.post('/api/role/update', {
      roleId: first.roleId,
      revision: first.revision,
      name: '沈青灯',
    });
    expect(fixed.code).toBe(0);

    const started = (await client.post('/api/series/start', { seriesId: draft.seriesId }))
      .data as SeriesDetail;
    expect(started.state).toBe('running');
    // Five counts set aside at once (one already taken by the first episode's task).
    expect(await gen(userId)).toBe(5);

    const done = await settled(client, draft.seriesId);
    expect(done.episodes.map((e) => e.state)).toEqual(Array(5).fill('succeeded'));
    expect(done).toMatchObject({ succeeded: 5, failed: 0, reservedCounts: 0, etaSeconds: null });
    expect(await gen(userId)).toBe(5);
    expect(mostAtOnce.get(userId)).toBe(1);
    // Episodes rendered in order.
    const order = rendered.filter(([u]) => u === userId).map(([, workId]) => workId);
    expect(order).toEqual(done.episodes.map((e) => e.workId));

    // Every episode's pictures draw the reviewed cast, with the fixed name.
    for (const episode of done.episodes) {
      const names = (await app.roles.listOfWork(userId, episode.workId)).map((r) => r.name);
      expect(names).toContain('沈青灯');
      expect(names).toEqual(cast.map((r) => (r.roleId === first.roleId ? '沈青灯' : r.name)));
    }
    // Saved into My roles.
    const library = (await client.get('/api/library/roles?pageIndex=1&pageSize=100')).data as {
      items: Role[];
    };
    expect(library.items.map((r) => r.name)).toContain('沈青灯');

    // My works, filtered by the series, in episode order; and the list of series.
    const works = (await client.get(`/api/video/get_works?seriesId=${draft.seriesId}&type=0`))
      .data as { items: WorkSummary[]; total: number };
    expect(works.items.map((w) => w.title)).toEqual(done.episodes.map((e) => e.title));
    const list = (await client.get('/api/series/list')).data as SeriesSummary[];
    expect(list).toEqual([
      expect.objectContaining({
        seriesId: draft.seriesId,
        state: 'finished',
        episodes: 5,
        succeeded: 5,
      }),
    ]);

    // The whole season as one ZIP: an MP4 and an SRT per episode, in order.
    const zip = await app.inject({
      method: 'GET',
      url: `/api/series/download?seriesId=${draft.seriesId}`,
      headers: client.headers,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const names = Object.keys(files);
    expect(names).toEqual(
      done.episodes.flatMap((e) => [
        `第0${e.index}集 ${e.title}.mp4`,
        `第0${e.index}集 ${e.title}.srt`,
      ]),
    );
    expect(strFromU8(files[names[0] ?? ''] ?? new Uint8Array())).toContain(
      `video of work ${done.episodes[0]?.workId}`,
    );

    // The progress stream of a finished series ends at once with it.
    const stream = await app.inject({
      method: 'GET',
      url: `/api/series/progress_stream?seriesId=${draft.seriesId}`,
      headers: client.headers,
    });
    expect(stream.body).toMatch(/^event: done\ndata: \{.*"state":"finished"/);

    // Another creator sees none of it.
    const other = await signedInClient(app);
    expect((await other.get(`/api/series/detail?seriesId=${draft.seriesId}`)).status).toBe(404);
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/series/download?seriesId=${draft.seriesId}`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses bad ranges with a message naming the problem, and creates nothing', async () => {
    const { client, userId } = await creator(10);
    const plan = (source: unknown) =>
      client.post('/api/series/plan', { type: 0, source, narration: 'chapter' });
    const total = book.chapters.length;
    expect((await plan(bookSource(1, total + 3))).msg).toBe(
      `《青灯照剑》只有 ${total} 章，所选范围第1–${total + 3}章超出了全书`,
    );
    expect((await plan(bookSource(4, 2))).msg).toBe('起始章节（第4章）不能在结束章节之后');
    expect((await plan({ ...bookSource(1, 2), bookId: 999_999 })).status).toBe(404);
    expect((await plan({ kind: 'works', workIds: [] })).msg).toBe('请至少选择一篇文案');
    expect((await plan({ kind: 'book', bookId: book.bookId })).msg).toBe(
      '请选择书籍和章节范围（起始章节、结束章节）',
    );
    const anime = await client.post('/api/series/plan', {
      type: 11,
      source: bookSource(1, 2),
      narration: 'chapter',
    });
    expect(anime.status).toBe(400);
    // A word platforms throttle is named per episode, as a warning (the plan still answers).
    const flagged = await app.works.create(userId, {
      type: 0,
      title: '带联系方式',
      text: '故事讲完了，想看后续加微信。',
    });
    const warned = (await plan({ kind: 'works', workIds: [flagged] })).data as SeriesPlan;
    expect(warned.episodes[0]?.flagged).toMatch(
      /^第1集中有平台可能限流的词：「加微信」（可改为「关注我」）/,
    );
    const empty = await app.works.create(userId, { type: 0, title: '空文案', text: '' });
    expect((await plan({ kind: 'works', workIds: [empty] })).msg).toBe('文案「空文案」是空的');
    // Titles that do not match the range.
    const mismatched = await client.post('/api/series/create', {
      type: 0,
      source: bookSource(1, 3),
      narration: 'chapter',
      title: '青灯照剑',
      episodeTitles: ['一', '二'],
      settings: { aspect: '9:16' },
    });
    expect(mismatched.msg).toBe('分集标题有 2 个，所选内容有 3 集，请重新预估后再创建');
    expect((await client.get('/api/series/list')).data).toEqual([]);
    expect(await gen(userId)).toBe(10);
  });

  it('says how many counts it lacks, spends nothing, and can make as many episodes as the counts allow', async () => {
    const { client, userId } = await creator(2);
    const draft = await createSeries(client, 1, 4);
    const refused = await client.post('/api/series/start', { seriesId: draft.seriesId });
    expect(refused.code).toBe(ErrorCode.quotaExhausted);
    expect(refused.msg).toBe(
      '漫剪视频的生成次数不够：这个系列需要 4 次，剩余 2 次，可以先生成前 2 集',
    );
    expect(await gen(userId)).toBe(2);
    expect((await detailOf(client, draft.seriesId)).state).toBe('draft');

    await client.post('/api/series/start', { seriesId: draft.seriesId, episodes: 2 });
    const done = await settled(client, draft.seriesId);
    expect(done.episodes.map((e) => e.state)).toEqual([
      'succeeded',
      'succeeded',
      'cancelled',
      'cancelled',
    ]);
    expect(await gen(userId)).toBe(0);
  });

  it('cancelling gives back the counts of the episodes not started; the one rendering finishes', async () => {
    const { client, userId } = await creator(10);
    const draft = await createSeries(client, 1, 5);
    renderMs.set(draft.episodes[0]?.workId ?? 0, 1_500);
    await client.post('/api/series/start', { seriesId: draft.seriesId });
    expect(await gen(userId)).toBe(5);
    await waitFor(
      async () => (await detailOf(client, draft.seriesId)).episodes[0]?.state === 'running',
    );
    const cancelled = (await client.post('/api/series/cancel', { seriesId: draft.seriesId }))
      .data as SeriesDetail;
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.reservedCounts).toBe(0);
    expect(await gen(userId)).toBe(9);
    const done = await settled(client, draft.seriesId);
    expect(done.episodes.map((e) => e.state)).toEqual([
      'succeeded',
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(await gen(userId)).toBe(9);
    // A second cancel (a double click) changes nothing.
    await client.post('/api/series/cancel', { seriesId: draft.seriesId });
    expect(await gen(userId)).toBe(9);
  });

  it('pauses after the running episode, resumes, and retries a failed episode with a count of its own', async () => {
    const { client, userId } = await creator(10);
    const draft = await createSeries(client, 1, 3);
    const [one, two] = draft.episodes;
    renderMs.set(one?.workId ?? 0, 800);
    failOnce.add(two?.workId ?? 0);
    await client.post('/api/series/start', { seriesId: draft.seriesId });
    await waitFor(
      async () => (await detailOf(client, draft.seriesId)).episodes[0]?.state === 'running',
    );
    const paused = (await client.post('/api/series/pause', { seriesId: draft.seriesId }))
      .data as SeriesDetail;
    expect(paused.state).toBe('paused');
    await waitFor(
      async () => (await detailOf(client, draft.seriesId)).episodes[0]?.state === 'succeeded',
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await detailOf(client, draft.seriesId)).episodes.map((e) => e.state)).toEqual([
      'succeeded',
      'pending',
      'pending',
    ]);
    await client.post('/api/series/resume', { seriesId: draft.seriesId });
    // The second fails; the series goes on to the third.
    const ended = await settled(client, draft.seriesId);
    expect(ended.episodes.map((e) => e.state)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(ended.episodes[1]?.error).toBeTruthy();
    const before = await gen(userId);
    const retried = await client.post('/api/series/retry_episode', {
      seriesId: draft.seriesId,
      index: 2,
    });
    expect(retried.code).toBe(0);
    const again = await settled(client, draft.seriesId);
    expect(again.episodes.map((e) => e.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // The retry took one count (the failed render gave its own back, as any failed video does).
    expect(await gen(userId)).toBe(before - 1);
    const refused = await client.post('/api/series/retry_episode', {
      seriesId: draft.seriesId,
      index: 1,
    });
    expect(refused.msg).toBe('第1集没有失败，不需要重新生成');
  });

  it('is fair: another creator’s single video finishes while a series runs, not after it', async () => {
    const a = await creator(10);
    const series = await createSeries(a.client, 1, 5);
    for (const episode of series.episodes) renderMs.set(episode.workId, 600);
    await a.client.post('/api/series/start', { seriesId: series.seriesId });
    await waitFor(
      async () => (await detailOf(a.client, series.seriesId)).episodes[0]?.state === 'running',
    );
    const b = await creator(1);
    const workId = await app.works.create(b.userId, {
      type: 0,
      title: '单个视频',
      text: '从前有座山。',
    });
    const started = await b.client.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const bDone = await waitFor(async () => rendered.find(([u]) => u === b.userId));
    const aDone = await settled(a.client, series.seriesId);
    const aEnds = rendered.filter(([u]) => u === a.userId).map(([, , at]) => at);
    // B's video ended before A's second episode did: it waited for no episode of A's.
    expect(bDone[2]).toBeLessThan(aEnds[1] ?? 0);
    expect(aDone.succeeded).toBe(5);
    expect(mostAtOnce.get(a.userId)).toBe(1);
  });

  it('narrates each chapter as a promotional copy written just before its episode starts', async () => {
    const { client, userId } = await creator(10);
    const draft = await createSeries(client, 2, 3, 'promo');
    // Nothing is written before the start.
    for (const episode of draft.episodes) {
      expect((await app.works.find(userId, episode.workId))?.text).toBe('');
    }
    await client.post('/api/series/start', { seriesId: draft.seriesId });
    const done = await settled(client, draft.seriesId);
    expect(done.episodes.map((e) => e.state)).toEqual(['succeeded', 'succeeded']);
    const chapters =
      (
        await app.books.chapters(
          userId,
          book.bookId,
          book.chapters.slice(1, 3).map((c) => c.chapterId),
        )
      )?.chapters ?? [];
    for (const [i, episode] of done.episodes.entries()) {
      const text = (await app.works.find(userId, episode.workId))?.text ?? '';
      expect(text.length).toBeGreaterThan(20);
      expect(text).not.toBe(chapters[i]?.content.trim());
      expect(text).toContain('《青灯照剑》');
    }
  });

  it('resumes an episode whose worker died, and spends its count once', async () => {
    const { client, userId } = await creator(10);
    const draft = await createSeries(client, 1, 3);
    const second = draft.episodes[1]?.workId ?? 0;
    hangOnce.add(second);
    // A worker of its own that is killed while the second episode renders.
    for (const worker of workers) await worker.stop();
    workers.length = 0;
    const doomed = await startWorker(1);
    await client.post('/api/series/start', { seriesId: draft.seriesId });
    await waitFor(
      async () => (await detailOf(client, draft.seriesId)).episodes[1]?.stage === 'compose',
    );
    const runner = await doomed.startWorker();
    await runner.kill();
    workers.length = 0;
    await startWorker();
    const done = await settled(client, draft.seriesId, 60_000);
    expect(done.episodes.map((e) => e.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(await gen(userId)).toBe(7);
  });
});
