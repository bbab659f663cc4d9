import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { MediaStore } from '../../src/storage';
import { taskMirror } from '../../src/storage/task-mirror';
import { PipelineRegistry } from '../../src/tasks/registry';
import type { StageContext } from '../../src/tasks/types';
import { createTestApp } from '../helpers/test-app';
import { startS3Server, storesOn, type TestS3Server } from '../helpers/s3-server';
import { countedStage, taskService, untilAborted, userWithWork, waitFor } from './helpers';

let app: FastifyInstance;
let s3: TestS3Server;
let store: MediaStore;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'kol-task-files-'));

beforeAll(async () => {
  ({ app } = await createTestApp());
  s3 = await startS3Server();
  store = (await storesOn(s3, path.join(scratch, 'store'))).media;
});
afterAll(async () => {
  await app.close();
  await s3.close();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * A "machine": its own media cache and scratch folder, the same bucket. Its pipeline writes in
 * its own media folder as the video pipelines do (`<mediaDir>/<userId>/<taskId>/`).
 */
function machine(name: string, calls: Record<string, number>) {
  const mediaDir = path.join(scratch, name, 'media');
  const workDir = path.join(scratch, name, 'tasks');
  const folder = (ctx: StageContext) => path.join(mediaDir, String(ctx.task.userId), ctx.task.id);
  const registry = new PipelineRegistry().register(0, [
    countedStage('script', calls, async (ctx) => {
      await mkdir(path.join(folder(ctx), 'parts'), { recursive: true });
      await writeFile(path.join(folder(ctx), 'parts', 'script.txt'), '第一幕\n第二幕');
      await writeFile(path.join(ctx.workDir, 'scratch.tmp'), 'ffmpeg scratch');
      return { lines: 2 };
    }),
    countedStage('images', calls, async (ctx) => {
      // The first run hangs like a long render until its machine "dies".
      if (ctx.attempt === 1) return untilAborted(ctx.signal);
      // What the first machine's stage wrote, read from this machine's folder.
      const script = await readFile(path.join(folder(ctx), 'parts', 'script.txt'), 'utf8');
      await writeFile(path.join(folder(ctx), 'cover.png'), `画 ${script.split('\n').length}`);
      return { images: 1 };
    }),
    countedStage('compose', calls, async (ctx) => {
      await writeFile(path.join(folder(ctx), 'video.mp4'), 'video bytes');
      return { video: 'video.mp4' };
    }),
  ]);
  const service = taskService(app, registry, { workDir, files: taskMirror(store, mediaDir) });
  return { service, mediaDir, workDir };
}

describe('task files on an object store', () => {
  it('resumes on another machine from what the finished stages stored, and leaves nothing local', async () => {
    const calls: Record<string, number> = {};
    const a = machine('a', calls);
    const runner = await a.service.startWorker();
    const { userId, workId } = await userWithWork(app, { gen: 1 });
    const { taskId } = await a.service.startVideoTask(userId, workId);
    await waitFor(async () => calls.images === 1);
    // Stored before the stage counted as finished, so the resume can rely on it.
    expect((await store.list(`${userId}/${taskId}/`)).map((entry) => entry.key)).toEqual([
      `${userId}/${taskId}/parts/script.txt`,
    ]);
    await runner.kill();

    const b = machine('b', calls);
    await b.service.startWorker();
    try {
      const result = await waitFor(async () => {
        const progress = await b.service.getTaskProgress(userId, taskId);
        return progress && progress.state !== 'running' && progress.state !== 'queued'
          ? progress
          : null;
      });
      expect(result).toMatchObject({ state: 'succeeded' });
      expect(calls).toEqual({ script: 1, images: 2, compose: 1 });
      const stored = await store.list(`${userId}/${taskId}/`);
      expect(stored.map((entry) => entry.key)).toEqual([
        `${userId}/${taskId}/cover.png`,
        `${userId}/${taskId}/parts/script.txt`,
        `${userId}/${taskId}/video.mp4`,
      ]);
      const cover = await store.cached(`${userId}/${taskId}/cover.png`);
      expect(cover && (await readFile(cover, 'utf8'))).toBe('画 2');
      // The machine that finished it keeps neither the task's media nor its scratch files.
      expect(existsSync(path.join(b.mediaDir, String(userId), taskId))).toBe(false);
      expect(existsSync(path.join(b.workDir, taskId))).toBe(false);
    } finally {
      await b.service.stop();
      await a.service.stop();
    }
  });

  it('cleans a task up locally when it fails too', async () => {
    const calls: Record<string, number> = {};
    const mediaDir = path.join(scratch, 'c', 'media');
    const workDir = path.join(scratch, 'c', 'tasks');
    const registry = new PipelineRegistry().register(0, [
      countedStage('script', calls, async (ctx) => {
        const folder = path.join(mediaDir, String(ctx.task.userId), ctx.task.id);
        await mkdir(folder, { recursive: true });
        await writeFile(path.join(folder, 'draft.txt'), 'draft');
        await writeFile(path.join(ctx.workDir, 'scratch.tmp'), 'ffmpeg scratch');
        throw new Error('ffmpeg exited with code 1');
      }),
    ]);
    const service = taskService(app, registry, { workDir, files: taskMirror(store, mediaDir) });
    await service.startWorker();
    try {
      const { userId, workId } = await userWithWork(app, { gen: 1 });
      const { taskId } = await service.startVideoTask(userId, workId);
      await waitFor(async () => {
        const progress = await service.getTaskProgress(userId, taskId);
        return progress?.state === 'failed';
      });
      // Both copies go once the task leaves the process (under load, one after the other).
      await waitFor(
        async () =>
          !existsSync(path.join(workDir, taskId)) &&
          !existsSync(path.join(mediaDir, String(userId), taskId)),
      );
      expect(readdirSync(workDir)).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});
