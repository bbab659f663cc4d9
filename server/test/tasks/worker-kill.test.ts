import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { TaskRef } from '@kol/shared-sdk/contracts';
import type { AppConfig } from '../../src/config';
import { metricValue, scrape } from '../helpers/scrape';
import { createTestApp, onPostgres, testDataDir } from '../helpers/test-app';
import { expectProvenVideo, finishedWork } from '../video/proof';
import { signedInClient } from '../writing/helpers';
import { waitFor } from './helpers';

// A real worker process, killed with SIGKILL (or stopped with SIGTERM) mid-task, then a second
// one that finishes it.
// Separate worker processes need PostgreSQL: the embedded database lives inside the server's
// process, which runs the jobs itself (runner.test.ts kills that runner instead).
jest.setTimeout(240_000);
const itOnPostgres = onPostgres ? it : it.skip;

let app: FastifyInstance;
const children: ChildProcess[] = [];

const renderSize = { width: 216, height: 384 };

beforeAll(async () => {
  if (!onPostgres) return;
  // This process only serves the API and enqueues: the workers are the child processes.
  ({ app } = await createTestApp({
    videoTasks: { workInProcess: false, renderSize, workDir: path.join(testDataDir(), 'tasks') },
  }));
});
/** Each test's workers are gone before the next starts: none of them takes its task. */
async function stopWorkers() {
  const running = children
    .splice(0)
    .filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return gone;
    }),
  );
}
afterEach(stopWorkers);
afterAll(async () => {
  await stopWorkers();
  await app?.close();
});

interface WorkerChild {
  child: ChildProcess;
  /** What it printed so far (its JSON log lines). */
  output(): string;
  /** Its ops listener (METRICS_PORT 0: a free port). */
  metricsPort: number;
  exited: Promise<number | null>;
}

function startWorker(): Promise<WorkerChild> {
  const config: AppConfig = {
    ...app.config,
    videoTasks: {
      workInProcess: true,
      concurrency: 1,
      leaseMs: 1_500,
      pollingIntervalSeconds: 0.5,
      workDir: path.join(testDataDir(), 'tasks'),
      renderSize,
    },
    // No grace: at SIGTERM the running stage is given back at once.
    ops: { listen: { host: '127.0.0.1', port: 0 }, shutdownGraceMs: 0 },
  };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'worker-child.ts')],
    {
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, KOL_WORKER_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const ready = /^ready (\d+)$/m.exec(output);
      if (ready) resolve({ child, output: () => output, metricsPort: Number(ready[1]), exited });
    });
    void exited.then((code) => reject(new Error(`worker exited ${code}: ${output}`)));
  });
}

const stagesOf = (taskId: string) =>
  app.db
    .selectFrom('video_task_stages')
    .select(['name', 'state', 'attempts', 'outputs'])
    .where('task_id', '=', taskId)
    .orderBy('position')
    .execute();

itOnPostgres(
  'a worker killed mid-task: the next one resumes from the last finished stage, nothing redone',
  async () => {
    const alice = await signedInClient(app);
    const userId = ((await alice.get('/api/user/current')).data as { userId: number }).userId;
    await app.quotaService.grant(userId, 'comics', { gen: 1 });
    const saved = await alice.post('/api/video/save_text', {
      title: '断点续作',
      text: '第一句话在这里。第二句话接着说。第三句话也很短。第四句话慢慢讲。第五句话就到这里。第六句话结束了。',
    });
    const { workId } = saved.data as { workId: number };
    const first = await startWorker();
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;

    // Killed once the pictures are made, while the voice (or the render) is under way.
    await waitFor(async () => {
      const stages = await stagesOf(taskId);
      return stages.find((s) => s.name === 'images')?.state === 'succeeded';
    }, 120_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await stagesOf(taskId);
    const doneAtKill = atKill.filter((s) => s.state === 'succeeded');
    expect(doneAtKill.map((s) => s.name)).toEqual(
      expect.arrayContaining(['script', 'shots', 'images']),
    );
    expect((await alice.get(`/api/video/get_work_result?workId=${workId}`)).data).toMatchObject({
      state: 'running',
    });

    await startWorker();
    const result = await finishedWork(alice, workId, taskId, 180_000);
    const after = await stagesOf(taskId);
    for (const stage of doneAtKill) {
      const now = after.find((s) => s.name === stage.name);
      // Never run again: one attempt, the same outputs.
      expect(now).toMatchObject({ state: 'succeeded', attempts: 1 });
      expect(now?.outputs).toEqual(stage.outputs);
    }
    expect(after.every((s) => s.state === 'succeeded')).toBe(true);
    const voice = after.find((s) => s.name === 'voice')?.outputs as { durationMs: number };
    await expectProvenVideo(app, result, { ...renderSize, speechMs: voice.durationMs });
    // One count spent, none given back: the task succeeded.
    expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
  },
);

itOnPostgres(
  'SIGTERM mid-task: the worker gives the task back and exits 0, the next one finishes it, spent once',
  async () => {
    const bob = await signedInClient(app);
    const userId = ((await bob.get('/api/user/current')).data as { userId: number }).userId;
    await app.quotaService.grant(userId, 'comics', { gen: 1 });
    const saved = await bob.post('/api/video/save_text', {
      title: '停机交还',
      text: '第一句话在这里。第二句话接着说。第三句话也很短。第四句话慢慢讲。第五句话就到这里。第六句话结束了。',
    });
    const { workId } = saved.data as { workId: number };
    const first = await startWorker();
    const { taskId } = (await bob.post('/api/video/gen_video', { workId })).data as TaskRef;

    await waitFor(async () => {
      const stages = await stagesOf(taskId);
      return stages.find((s) => s.name === 'images')?.state === 'succeeded';
    }, 120_000);
    // The worker that ran them counts them (scraped on its own listener, not the API's).
    const metrics = await scrape(`http://127.0.0.1:${first.metricsPort}/metrics`);
    expect(
      metricValue(metrics, 'kol_video_stage_duration_seconds_count', {
        type: 'comics',
        stage: 'images',
        outcome: 'succeeded',
      }),
    ).toBe(1);
    expect(metricValue(metrics, 'kol_video_tasks', { type: 'comics', state: 'running' })).toBe(1);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/given back at shutdown/);
    const atStop = await stagesOf(taskId);
    const doneAtStop = atStop.filter((s) => s.state === 'succeeded');
    // Nothing is left running in the name of the stopped worker.
    expect(atStop.some((s) => s.state === 'running')).toBe(false);
    const row = await app.db
      .selectFrom('video_tasks')
      .select(['state', 'runner_id'])
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'running', runner_id: null });

    await startWorker();
    const result = await finishedWork(bob, workId, taskId, 180_000);
    const after = await stagesOf(taskId);
    for (const stage of doneAtStop) {
      expect(after.find((s) => s.name === stage.name)).toMatchObject({
        state: 'succeeded',
        attempts: 1,
        outputs: stage.outputs,
      });
    }
    expect(after.every((s) => s.state === 'succeeded')).toBe(true);
    const voice = after.find((s) => s.name === 'voice')?.outputs as { durationMs: number };
    await expectProvenVideo(app, result, { ...renderSize, speechMs: voice.durationMs });
    expect(await app.quotaService.counts(userId, 'comics')).toMatchObject({ gen: 0 });
  },
);
