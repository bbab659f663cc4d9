import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { TaskRef } from '@kol/shared-sdk/contracts';
import type { AppConfig } from '../../src/config';
import { createTestApp, onPostgres, testDataDir } from '../helpers/test-app';
import { expectProvenVideo, finishedWork } from '../video/proof';
import { signedInClient } from '../writing/helpers';
import { waitFor } from './helpers';

// A real worker process, killed with SIGKILL mid-task, then a second one that finishes it.
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
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await app?.close();
});

function startWorker(): Promise<ChildProcess> {
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
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${errors}`)));
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
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
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
