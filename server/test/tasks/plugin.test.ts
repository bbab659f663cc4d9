import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { countedStage, userWithWork, waitFor } from './helpers';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: {
      workInProcess: true,
      concurrency: 1,
      workDir: path.join(testDataDir(), 'tasks'),
      pollingIntervalSeconds: 0.5,
    },
  }));
});
afterAll(async () => {
  await app.close();
});

it('runs tasks in the server process when configured, through app.videoTasks', async () => {
  const calls: Record<string, number> = {};
  app.videoPipelines.register(0, [
    countedStage('script', calls, async (ctx) => ({ dir: ctx.workDir })),
    countedStage('compose', calls, async () => ({ videoUrl: '/v.mp4' })),
  ]);
  const { userId, workId } = await userWithWork(app, { gen: 1 });
  const { taskId } = await app.videoTasks.startVideoTask(userId, workId);
  const result = await waitFor(async () => {
    const progress = await app.videoTasks.getWorkProgress(userId, workId);
    return progress?.state === 'succeeded' ? progress : null;
  });
  expect(result).toMatchObject({ taskId, videoUrl: '/v.mp4', progress: 100 });
  expect(calls).toEqual({ script: 1, compose: 1 });
});
