import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { metricValue, parseScrape } from '../helpers/scrape';
import { createTestApp } from '../helpers/test-app';
import { Metrics } from '../../src/ops/metrics';
import { createVideoTasksRepository } from '../../src/repositories/video-tasks';
import { StageError, UserInputError } from '../../src/tasks/errors';
import { PipelineRegistry } from '../../src/tasks/registry';
import { defineStage } from '../../src/tasks/stage';
import { Type } from 'typebox';
import { EVENT_PROGRESS, etaSeconds, overallProgress } from '../../src/tasks/runner';
import type { TaskProgressEvent } from '../../src/tasks/types';
import { sql } from 'kysely';
import { bossSchemaOf } from '../../src/tasks/plugin';
import {
  countedStage,
  jobOf as jobOfTask,
  jobState as stateOfJob,
  queuedJobs,
  taskService,
  untilAborted,
  userWithWork,
  waitFor,
} from './helpers';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

const jobOf = (taskId: string) => jobOfTask(app, taskId);
const jobState = (jobId: string | null) => stateOfJob(app, jobId);

/** Any owner: these tests read tasks as the system does (the owner check is tested apart). */
const progressOf = async (service: ReturnType<typeof taskService>, taskId: string) => {
  const task = await app.db
    .selectFrom('video_tasks')
    .select('user_id')
    .where('id', '=', taskId)
    .executeTakeFirst();
  return task ? service.getTaskProgress(task.user_id, taskId) : null;
};

const finished = (service: ReturnType<typeof taskService>, taskId: string) =>
  waitFor(async () => {
    const result = await progressOf(service, taskId);
    return result && !['queued', 'running'].includes(result.state) ? result : null;
  });

describe('video task runner', () => {
  it('runs a 3-stage pipeline to success, recording each stage and the outputs', async () => {
    const calls: Record<string, number> = {};
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls, async () => ({ script: '第一幕' })),
      {
        ...countedStage('images', calls, async (ctx) => {
          ctx.reportProgress(50);
          await new Promise((resolve) => setTimeout(resolve, 60));
          ctx.reportProgress(100);
          return { images: [`${String(ctx.outputs.script?.script)}.jpg`] };
        }),
        weight: 2,
      },
      countedStage('compose', calls, async (ctx) => ({
        videoUrl: `/media/${ctx.task.id}.mp4`,
        srtUrl: `/media/${ctx.task.id}.srt`,
        coverUrl: '',
      })),
    ]);
    const service = taskService(app, registry);
    const events: TaskProgressEvent[] = [];
    service.events.on(EVENT_PROGRESS, (event: TaskProgressEvent) => events.push(event));
    await service.startWorker();
    try {
      const { userId, workId } = await userWithWork(app, { gen: 2 });
      const { taskId } = await service.startVideoTask(userId, workId);
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 1 });
      const result = await finished(service, taskId);
      expect(result).toMatchObject({
        workId,
        taskId,
        state: 'succeeded',
        stage: 'compose',
        progress: 100,
        etaSeconds: null,
        videoUrl: `/media/${taskId}.mp4`,
        srtUrl: `/media/${taskId}.srt`,
        error: null,
      });
      expect(result.stages).toEqual([
        { name: 'script', state: 'succeeded', progress: 100, error: null },
        { name: 'images', state: 'succeeded', progress: 100, error: null },
        { name: 'compose', state: 'succeeded', progress: 100, error: null },
      ]);
      const stages = await createVideoTasksRepository(app.db).stages(taskId);
      expect(stages.map((s) => s.outputs)).toEqual([
        { script: '第一幕' },
        { images: ['第一幕.jpg'] },
        { videoUrl: `/media/${taskId}.mp4`, srtUrl: `/media/${taskId}.srt`, coverUrl: '' },
      ]);
      expect(calls).toEqual({ script: 1, images: 1, compose: 1 });
      // Pushed as it happened: images at half is 1/4 + 2/4 * 50% = 50% overall.
      expect(events.some((e) => e.stage === 'images' && e.progress === 50)).toBe(true);
      expect(events.at(-1)).toMatchObject({ taskId, state: 'succeeded', progress: 100 });
      expect(await service.getWorkProgress(userId, workId)).toEqual(result);
      // Another user's work is refused.
      const other = await userWithWork(app, { gen: 1 });
      await expect(service.startVideoTask(other.userId, workId)).rejects.toMatchObject({
        code: 404,
      });
    } finally {
      await service.stop();
    }
  });

  it('fails a task whose stage throws, with a Chinese error naming stage, shot and provider, refunding once', async () => {
    const calls: Record<string, number> = {};
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls),
      countedStage('images', calls, async () => {
        throw new StageError('图片服务无响应', { shot: 3, provider: 'ComfyUI' });
      }),
      countedStage('compose', calls),
    ]);
    const service = taskService(app, registry);
    await service.startWorker();
    try {
      const { userId, workId } = await userWithWork(app, { gen: 1 });
      const { taskId } = await service.startVideoTask(userId, workId);
      const result = await finished(service, taskId);
      const message = '「画面」阶段失败（第 3 个分镜，服务：ComfyUI）：图片服务无响应';
      expect(result).toMatchObject({ state: 'failed', stage: 'images', error: message });
      expect(result.stages.map((s) => [s.name, s.state, s.error])).toEqual([
        ['script', 'succeeded', null],
        ['images', 'failed', message],
        ['compose', 'queued', null],
      ]);
      expect(calls).toEqual({ script: 1, images: 1 });
      // The very count spent (gen) came back, and only once even if failure is recorded again.
      expect(await app.quotaService.counts(userId, 'comics')).toEqual({
        gen: 1,
        reward: 0,
        merge: 0,
      });
      const repo = createVideoTasksRepository(app.db);
      expect(await repo.fail(taskId, null, 'images', message, true)).toBeNull();
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 1 });
    } finally {
      await service.stop();
    }
  });

  it('does not refund a failure that is the user’s, and hides internal error text', async () => {
    const registry = new PipelineRegistry()
      .register(0, [
        countedStage('script', {}, async () => {
          throw new UserInputError('文案含有平台敏感词「XX」');
        }),
      ])
      .register(5, [
        countedStage('voice', {}, async () => {
          throw new Error('ECONNRESET at socket.js:12');
        }),
      ]);
    const service = taskService(app, registry);
    await service.startWorker();
    try {
      const mine = await userWithWork(app, { gen: 1 });
      const first = await service.startVideoTask(mine.userId, mine.workId);
      expect(await finished(service, first.taskId)).toMatchObject({
        state: 'failed',
        error: '「文案」阶段失败：文案含有平台敏感词「XX」',
      });
      expect(await app.quotaService.counts(mine.userId, 'comics')).toMatchObject({ gen: 0 });

      const overseas = await userWithWork(app, {}, 5);
      await app.quotaService.grant(overseas.userId, 'comicsOverseas', { gen: 1 });
      const second = await service.startVideoTask(overseas.userId, overseas.workId);
      expect(await finished(service, second.taskId)).toMatchObject({
        state: 'failed',
        error: '「配音」阶段失败：系统内部错误，请稍后重试',
      });
      expect(await app.quotaService.counts(overseas.userId, 'comicsOverseas')).toMatchObject({
        gen: 1,
      });
    } finally {
      await service.stop();
    }
  });

  it('resumes a task after its worker died mid-stage, never re-running a finished stage', async () => {
    const calls: Record<string, number> = {};
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls, async () => ({ lines: 3 })),
      countedStage('images', calls, async (ctx) => {
        // The first run hangs like a long render until its process "dies".
        if (ctx.attempt === 1) return untilAborted(ctx.signal);
        return { images: ctx.outputs.script?.lines };
      }),
      countedStage('compose', calls, async () => ({ videoUrl: '/v.mp4' })),
    ]);
    const first = taskService(app, registry);
    const runner = await first.startWorker();
    const { userId, workId } = await userWithWork(app, { gen: 1 });
    const { taskId } = await first.startVideoTask(userId, workId);
    await waitFor(async () => calls.images === 1);
    const deadJob = await jobOf(taskId);
    await runner.kill();
    // Active as a SIGKILL leaves it, or waiting for a retry as this simulated death does.
    expect(['active', 'retry']).toContain(await jobState(deadJob));
    const stale = await createVideoTasksRepository(app.db).stages(taskId);
    expect(stale.map((s) => [s.name, s.state])).toEqual([
      ['script', 'succeeded'],
      ['images', 'running'],
      ['compose', 'queued'],
    ]);

    const second = taskService(app, registry);
    await second.startWorker();
    try {
      const result = await finished(second, taskId);
      expect(result).toMatchObject({ state: 'succeeded', videoUrl: '/v.mp4' });
      expect(calls).toEqual({ script: 1, images: 2, compose: 1 });
      const stages = await createVideoTasksRepository(app.db).stages(taskId);
      expect(stages.map((s) => [s.name, s.attempts, s.outputs])).toEqual([
        ['script', 1, { lines: 3 }],
        ['images', 2, { images: 3 }],
        ['compose', 1, { videoUrl: '/v.mp4' }],
      ]);
      // The dead worker's job was retired when the task was handed to a new one: it does not
      // sit active until it expires (6 hours), nor run again.
      expect(await jobOf(taskId)).not.toBe(deadJob);
      expect(await jobState(deadJob)).toBe('cancelled');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(calls).toEqual({ script: 1, images: 2, compose: 1 });
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('a stop with a grace time lets the running stage finish, starts no next one, and gives the task back', async () => {
    const calls: Record<string, number> = {};
    let finishImages: () => void = () => {};
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls),
      countedStage(
        'images',
        calls,
        () => new Promise((resolve) => (finishImages = () => resolve({ images: 2 }))),
      ),
      countedStage('compose', calls, async () => ({ videoUrl: '/v.mp4', durationMs: 4_000 })),
    ]);
    const metrics = new Metrics('worker');
    const first = taskService(app, registry, { metrics, stopGraceMs: 10_000 });
    await first.startWorker();
    const { userId, workId } = await userWithWork(app, { gen: 1 });
    const { taskId } = await first.startVideoTask(userId, workId);
    await waitFor(async () => calls.images === 1);
    const firstJob = await jobOf(taskId);
    const stopping = first.stop();
    // SIGTERM came mid-stage: the stage finishes within the grace time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    finishImages();
    await stopping;
    const stages = await createVideoTasksRepository(app.db).stages(taskId);
    expect(stages.map((s) => [s.name, s.state, s.attempts])).toEqual([
      ['script', 'succeeded', 1],
      ['images', 'succeeded', 1],
      ['compose', 'queued', 0],
    ]);
    // Given back with a job of its own, for whichever process takes jobs next.
    const newJob = await jobOf(taskId);
    expect(newJob).not.toBe(firstJob);
    expect(await jobState(newJob)).toBe('created');
    const families = parseScrape(await metrics.text());
    expect(
      metricValue(families, 'kol_video_stage_duration_seconds_count', {
        stage: 'images',
        outcome: 'succeeded',
      }),
    ).toBe(1);
    expect(
      metricValue(families, 'kol_video_task_queue_wait_seconds_count', { type: 'comics' }),
    ).toBe(1);

    const second = taskService(app, registry, { metrics });
    await second.startWorker();
    try {
      expect(await finished(second, taskId)).toMatchObject({ state: 'succeeded' });
      expect(calls).toEqual({ script: 1, images: 1, compose: 1 });
      const after = parseScrape(await metrics.text());
      expect(metricValue(after, 'kol_video_tasks_finished_total', { state: 'succeeded' })).toBe(1);
      // The wait is the first run's only: the resumed one is not a second wait in the queue.
      expect(metricValue(after, 'kol_video_task_queue_wait_seconds_count')).toBe(1);
      expect(metricValue(after, 'kol_video_render_seconds_per_video_second_count')).toBe(1);
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
    } finally {
      await second.stop();
    }
  });

  it('a stop past its grace time aborts the running stage and gives it back: the next runner runs it again', async () => {
    const calls: Record<string, number> = {};
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls),
      countedStage('images', calls, async (ctx) =>
        ctx.attempt === 1 ? untilAborted(ctx.signal) : { images: 2 },
      ),
    ]);
    const metrics = new Metrics('worker');
    const first = taskService(app, registry, { metrics, stopGraceMs: 200 });
    await first.startWorker();
    const { userId, workId } = await userWithWork(app, { gen: 1 });
    const { taskId } = await first.startVideoTask(userId, workId);
    await waitFor(async () => calls.images === 1);
    await first.stop();
    const stages = await createVideoTasksRepository(app.db).stages(taskId);
    expect(stages.map((s) => [s.name, s.state])).toEqual([
      ['script', 'succeeded'],
      ['images', 'queued'],
    ]);
    expect(
      metricValue(parseScrape(await metrics.text()), 'kol_video_stage_duration_seconds_count', {
        stage: 'images',
        outcome: 'given_back',
      }),
    ).toBe(1);
    const second = taskService(app, registry);
    await second.startWorker();
    try {
      expect(await finished(second, taskId)).toMatchObject({ state: 'succeeded' });
      expect(calls).toEqual({ script: 1, images: 2 });
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
    } finally {
      await second.stop();
    }
  });

  it('checks outputs read back on a resume against their schema: a stale one fails the task', async () => {
    const calls: Record<string, number> = {};
    const script = defineStage({
      name: 'script',
      output: Type.Object({ lines: Type.Number() }),
      async run() {
        calls.script = (calls.script ?? 0) + 1;
        return { lines: 3 };
      },
    });
    const images = defineStage({
      name: 'images',
      output: Type.Object({ images: Type.Array(Type.String()) }),
      async run(ctx) {
        calls.images = (calls.images ?? 0) + 1;
        // The first runs hang like a long render until their process "dies".
        if (ctx.attempt === 1) return untilAborted(ctx.signal);
        // Read by reference, typed by the schema: a number, never a string here.
        const { lines } = script.output(ctx);
        return { images: Array.from({ length: lines }, (_, i) => `${i}.jpg`) };
      },
    });
    const registry = new PipelineRegistry().register(0, [script, images]);
    const first = taskService(app, registry);
    const runner = await first.startWorker();
    const valid = await userWithWork(app, { gen: 1 });
    const stale = await userWithWork(app, { gen: 1 });
    const kept = await first.startVideoTask(valid.userId, valid.workId);
    const broken = await first.startVideoTask(stale.userId, stale.workId);
    await waitFor(async () => calls.images === 2);
    await runner.kill();
    // As an older release would have stored it: the field the stage reads is now a number.
    await app.db
      .updateTable('video_task_stages')
      .set({ outputs: JSON.stringify({ lines: 'three' }) })
      .where('task_id', '=', broken.taskId)
      .where('name', '=', 'script')
      .execute();

    const second = taskService(app, registry);
    await second.startWorker();
    try {
      expect(await finished(second, kept.taskId)).toMatchObject({ state: 'succeeded' });
      const resumed = await createVideoTasksRepository(app.db).stages(kept.taskId);
      expect(resumed.map((s) => [s.name, s.state, s.outputs])).toEqual([
        ['script', 'succeeded', { lines: 3 }],
        ['images', 'succeeded', { images: ['0.jpg', '1.jpg', '2.jpg'] }],
      ]);
      expect(await finished(second, broken.taskId)).toMatchObject({
        state: 'failed',
        error: '「文案」阶段失败：已保存的阶段结果与当前版本不符，无法继续，请重新生成',
      });
      const stages = await createVideoTasksRepository(app.db).stages(broken.taskId);
      expect(stages.map((s) => [s.name, s.state])).toEqual([
        ['script', 'failed'],
        ['images', 'running'],
      ]);
      // Only the resumed valid task ran images again; neither ran its script twice.
      expect(calls).toEqual({ script: 2, images: 3 });
      // Not the user's fault: the count comes back.
      expect(await app.quotaService.counts(stale.userId, 'comics')).toMatchObject({ gen: 1 });
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('fails a stage whose output does not fit its schema, as an internal error', async () => {
    const registry = new PipelineRegistry().register(0, [
      defineStage({
        name: 'script',
        output: Type.Object({ lines: Type.Number() }),
        // A stage bug the types would catch; a stage of plain JSON could still do it.
        run: async () => JSON.parse('{"lines":"3"}') as { lines: number },
      }),
    ]);
    const service = taskService(app, registry);
    await service.startWorker();
    try {
      const { userId, workId } = await userWithWork(app, { gen: 1 });
      const { taskId } = await service.startVideoTask(userId, workId);
      expect(await finished(service, taskId)).toMatchObject({
        state: 'failed',
        error: '「文案」阶段失败：系统内部错误，请稍后重试',
      });
    } finally {
      await service.stop();
    }
  });

  it('runs a queued task whose job was lost, once, when the runner sweeps', async () => {
    const calls: Record<string, number> = {};
    const registry = new PipelineRegistry().register(0, [countedStage('script', calls)]);
    const { userId, workId } = await userWithWork(app, { gen: 1 });
    // Started by a process that runs no jobs; then its job is lost (deleted from pg-boss).
    const api = taskService(app, registry);
    const { taskId } = await api.startVideoTask(userId, workId);
    const lostJob = await jobOf(taskId);
    await sql`DELETE FROM ${sql.table(`${bossSchemaOf(app.config.databaseSchema)}.job`)}
              WHERE id = ${lostJob}::uuid`.execute(app.db);
    await api.stop();

    const worker = taskService(app, registry);
    await worker.startWorker();
    try {
      expect(await finished(worker, taskId)).toMatchObject({ state: 'succeeded' });
      expect(calls).toEqual({ script: 1 });
      expect(await jobOf(taskId)).not.toBe(lostJob);
    } finally {
      await worker.stop();
    }
  });

  it('cancels a running task: the stage is aborted, later stages never run, no refund', async () => {
    const calls: Record<string, number> = {};
    let abortReason: unknown = null;
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls, async (ctx) => {
        try {
          return await untilAborted(ctx.signal);
        } finally {
          abortReason = ctx.signal.reason;
        }
      }),
      countedStage('compose', calls),
    ]);
    const service = taskService(app, registry);
    await service.startWorker();
    try {
      const { userId, workId } = await userWithWork(app, { gen: 1 });
      const { taskId } = await service.startVideoTask(userId, workId);
      await waitFor(async () => calls.script === 1);
      const stranger = await userWithWork(app, { gen: 1 });
      await expect(service.cancel(stranger.userId, taskId)).rejects.toMatchObject({ code: 404 });
      await service.cancel(userId, taskId);
      await waitFor(async () => abortReason !== null);
      expect(abortReason).toBe('cancelled');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const result = await progressOf(service, taskId);
      expect(result).toMatchObject({ state: 'cancelled', error: null });
      expect(result?.stages.map((s) => s.state)).toEqual(['cancelled', 'cancelled']);
      expect(calls).toEqual({ script: 1 });
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
      await expect(service.cancel(userId, taskId)).rejects.toMatchObject({ code: 409 });
    } finally {
      await service.stop();
    }
  });

  it('runs at most `concurrency` tasks at once, capped by the cores', async () => {
    let active = 0;
    let most = 0;
    const registry = new PipelineRegistry().register(1, [
      countedStage('compose', {}, async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 400));
        active -= 1;
        return {};
      }),
    ]);
    expect(taskService(app, registry, { concurrency: 1000 })).toBeDefined();
    const service = taskService(app, registry, { concurrency: 2 });
    const runner = await service.startWorker();
    expect(runner.concurrency).toBe(Math.min(2, os.availableParallelism()));
    try {
      const tasks: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const { userId, workId } = await userWithWork(app, {}, 1);
        await app.quotaService.grant(userId, 'decompression', { gen: 1 });
        tasks.push((await service.startVideoTask(userId, workId)).taskId);
      }
      for (const taskId of tasks) {
        expect(await finished(service, taskId)).toMatchObject({ state: 'succeeded' });
      }
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(runner.concurrency);
    } finally {
      await service.stop();
    }
    const wide = taskService(app, registry, { concurrency: 1000 });
    const wideRunner = await wide.startWorker();
    expect(wideRunner.concurrency).toBe(os.availableParallelism());
    await wide.stop();
  });

  it('refuses a start with no count left (402 naming the type) and enqueues nothing', async () => {
    const registry = new PipelineRegistry().register(0, [countedStage('compose', {})]);
    const service = taskService(app, registry);
    try {
      const { userId, workId } = await userWithWork(app, { gen: 1 });
      await service.startVideoTask(userId, workId);
      const jobs = await queuedJobs(app);
      // One unfinished task per work.
      await expect(service.startVideoTask(userId, workId)).rejects.toMatchObject({ code: 409 });
      const other = await app.works.create(userId, { type: 0, title: '第二个', text: '文' });
      await expect(service.startVideoTask(userId, other)).rejects.toMatchObject({
        code: 402,
        message: '漫剪视频的生成次数已用完',
      });
      expect(await queuedJobs(app)).toBe(jobs);
      const rows = await app.db
        .selectFrom('video_tasks')
        .select('id')
        .where('user_id', '=', userId)
        .execute();
      expect(rows).toHaveLength(1);
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
    } finally {
      await service.stop();
    }
  });

  it('a merge spends a merge count and gives it back when it fails; scroll has none', async () => {
    const registry = new PipelineRegistry().register(
      0,
      [
        {
          name: 'compose',
          async run() {
            throw new StageError('合成失败');
          },
        },
      ],
      'merge',
    );
    const service = taskService(app, registry);
    await service.startWorker();
    try {
      const { userId, workId } = await userWithWork(app, { merge: 1 });
      const { taskId } = await service.startMergeTask(userId, workId);
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ merge: 0 });
      expect(await finished(service, taskId)).toMatchObject({ state: 'failed' });
      expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ merge: 1 });
      // Only the video pipeline of type 0 is missing here: gen_video is refused, merge is not.
      await expect(service.startVideoTask(userId, workId)).rejects.toMatchObject({ code: 400 });
      const stranger = await userWithWork(app, { merge: 1 });
      await expect(service.startMergeTask(stranger.userId, workId)).rejects.toMatchObject({
        code: 404,
      });
      await app.db
        .updateTable('user_quotas')
        .set({ merge: 0 })
        .where('user_id', '=', userId)
        .execute();
      await expect(service.startMergeTask(userId, workId)).rejects.toMatchObject({
        code: 402,
        message: '漫剪视频的合成次数已用完',
      });
      const scroll = await userWithWork(app, { gen: 1 }, 2);
      await expect(service.startMergeTask(scroll.userId, scroll.workId)).rejects.toMatchObject({
        code: 400,
      });
    } finally {
      await service.stop();
    }
  });
});

describe('progress arithmetic', () => {
  it('weights stages and estimates the rest from the pace so far', () => {
    expect(
      overallProgress([
        { weight: 1, state: 'succeeded', progress: 100 },
        { weight: 2, state: 'running', progress: 50 },
        { weight: 1, state: 'queued', progress: 0 },
      ]),
    ).toBe(50);
    const start = new Date(0);
    expect(etaSeconds(start, 25, 10_000)).toBe(30);
    expect(etaSeconds(start, 0, 10_000)).toBeNull();
    expect(etaSeconds(null, 50, 10_000)).toBeNull();
    expect(etaSeconds(start, 100, 10_000)).toBe(0);
  });
});
