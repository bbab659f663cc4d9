import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { Database } from '../db/schema';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import type { Metrics } from '../ops/metrics';
import { sql } from 'kysely';
import { createRepositories, type Repositories } from '../repositories';
import { MIGRATIONS_DIR } from '../paths';
import { bossSchemaOf } from './plugin';
import { openTaskQueue } from './queue';
import { PipelineRegistry } from './registry';
import type { Logger, TaskRunner } from './runner';
import type { TaskFiles } from './types';
import { VideoTaskService } from './service';

export interface WorkerProcess {
  runner: TaskRunner;
  /** The worker's repositories (what its metrics read). */
  repos: Repositories;
  /** Answers when the database does (its readiness). */
  ping(): Promise<void>;
  /** Stops taking jobs, gives running tasks back (they resume elsewhere), closes the pool. */
  stop(): Promise<void>;
}

/**
 * A process that only works video task jobs (src/worker.ts), built from the same config and
 * pipelines as the server, so a task started by one process is finished the same way by another.
 */
export async function startWorkerProcess(
  config: AppConfig,
  log: Logger,
  options: {
    /** Registers the pipelines this worker runs (the video module's: src/video/worker.ts). */
    register: (registry: PipelineRegistry, db: Kysely<Database>) => void;
    /** Keeps task files beyond this process (an object store): TaskRunnerOptions.files. */
    files?: TaskFiles;
    pollingIntervalSeconds?: number;
    /** TaskRunnerOptions.metrics. */
    metrics?: Metrics;
  },
): Promise<WorkerProcess> {
  if (!('url' in config.database)) {
    // Only one process can open PGlite's data directory, and the server already does.
    throw new Error(
      'the worker needs DATABASE_URL: with the embedded database the server runs the jobs itself',
    );
  }
  const connection = await openDatabase(config, (error) =>
    log.error({ err: error }, 'idle database connection failed'),
  );
  const { db } = connection;
  await migrate(db, MIGRATIONS_DIR());
  const settings = config.videoTasks;
  const registry = new PipelineRegistry();
  options.register(registry, db);
  const repos = createRepositories(db);
  const service = new VideoTaskService({
    repos,
    registry,
    log,
    workDir: settings?.workDir ?? 'tasks',
    files: options.files,
    concurrency: settings?.concurrency,
    leaseMs: settings?.leaseMs,
    takeOverAllOnStart: false,
    metrics: options.metrics,
    stopGraceMs: settings?.stopGraceMs,
    openQueue: (supervise) =>
      openTaskQueue(db, {
        schema: bossSchemaOf(config.databaseSchema),
        sharedDatabase: true,
        supervise,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? settings?.pollingIntervalSeconds,
        onError: (error) => log.error({ err: error }, 'pg-boss error'),
      }),
  });
  const runner = await service.startWorker();
  return {
    runner,
    repos,
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    async stop() {
      await service.stop();
      await connection.close();
    },
  };
}
