import os from 'node:os';
import path from 'node:path';
import fp from 'fastify-plugin';
import { taskMirror } from '../storage/task-mirror';
import { openTaskQueue } from './queue';
import { PipelineRegistry } from './registry';
import { VideoTaskService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stage pipelines per project type (src/video/plugin.ts registers them). */
    videoPipelines: PipelineRegistry;
    /** Start, cancel and progress of video tasks; see src/tasks/service.ts. */
    videoTasks: VideoTaskService;
  }
}

/**
 * pg-boss's schema: `pgboss`, or the app's own schema when one is set (tests), so dropping
 * that schema takes the queue with it.
 */
export const bossSchemaOf = (databaseSchema: string | undefined) => databaseSchema ?? 'pgboss';

export default fp(
  async (app) => {
    const settings = app.config.videoTasks;
    // Empty here: the runner knows no pipeline; the video module registers its own.
    const registry = new PipelineRegistry();
    const service = new VideoTaskService({
      repos: app.repos,
      registry,
      log: app.log,
      workDir: settings?.workDir ?? path.join(os.tmpdir(), 'kol-video-tasks'),
      files: taskMirror(app.stores.media, app.config.mediaDir),
      concurrency: settings?.concurrency,
      leaseMs: settings?.leaseMs,
      metrics: app.metrics,
      stopGraceMs: settings?.stopGraceMs,
      // The embedded database has one process: every running task at start is an orphan.
      takeOverAllOnStart: 'embeddedDataDir' in app.config.database,
      openQueue: (supervise) =>
        openTaskQueue(app.db, {
          schema: bossSchemaOf(app.config.databaseSchema),
          sharedDatabase: 'url' in app.config.database,
          supervise,
          pollingIntervalSeconds: settings?.pollingIntervalSeconds,
          onError: (error) => app.log.error({ err: error }, 'pg-boss error'),
        }),
    });
    app.decorate('videoPipelines', registry);
    app.decorate('videoTasks', service);
    if (settings?.workInProcess) {
      // After every plugin registered its stages: a resumed task must find its pipeline.
      app.addHook('onReady', async () => {
        await service.startWorker();
      });
    }
    // At the stop's first step: no job or stage starts while the requests drain (a request in
    // flight may still enqueue one: it waits in the queue for another process, or the next start).
    app.addHook('preClose', async () => {
      await service.beginDrain();
    });
    // Before the database plugin's onClose ends the pool (hooks run in reverse order).
    app.addHook('onClose', async () => {
      await service.stop();
    });
  },
  { name: 'video-tasks', dependencies: ['database', 'repositories', 'storage', 'ops'] },
);
