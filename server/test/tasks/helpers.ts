import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { TEMPLATE_IDS } from '@kol/shared-sdk/contracts';
import { createUser, testDataDir } from '../helpers/test-app';
import type { Metrics } from '../../src/ops/metrics';
import { bossSchemaOf } from '../../src/tasks/plugin';
import { openTaskQueue, VIDEO_TASK_QUEUE } from '../../src/tasks/queue';
import type { PipelineRegistry } from '../../src/tasks/registry';
import { VideoTaskService } from '../../src/tasks/service';
import type { StageContext, StageHandler, StageOutputs, TaskFiles } from '../../src/tasks/types';

export const silentLog = { info() {}, warn() {}, error() {} };

/** A service over the test app's database, as a server or worker process would build it. */
export function taskService(
  app: FastifyInstance,
  registry: PipelineRegistry,
  options: {
    concurrency?: number;
    leaseMs?: number;
    workDir?: string;
    files?: TaskFiles;
    metrics?: Metrics;
    stopGraceMs?: number;
  } = {},
): VideoTaskService {
  return new VideoTaskService({
    repos: app.repos,
    registry,
    log: silentLog,
    workDir: options.workDir ?? path.join(testDataDir(), 'tasks'),
    files: options.files,
    concurrency: options.concurrency ?? 2,
    leaseMs: options.leaseMs ?? 60_000,
    takeOverAllOnStart: true,
    progressWriteMs: 20,
    metrics: options.metrics,
    stopGraceMs: options.stopGraceMs,
    openQueue: (supervise) =>
      openTaskQueue(app.db, {
        schema: bossSchemaOf(app.config.databaseSchema),
        sharedDatabase: 'url' in app.config.database,
        supervise,
        pollingIntervalSeconds: 0.5,
        onError: () => {},
      }),
  });
}

/** A user with these comics counts and a comics work; answers both ids. */
export async function userWithWork(
  app: FastifyInstance,
  counts: { gen?: number; reward?: number; merge?: number },
  type = 0,
): Promise<{ userId: number; workId: number }> {
  const { username } = await createUser(app, {
    templateIds: [...TEMPLATE_IDS],
    functionalLevel: 1,
  });
  const user = await app.users.findByUsername(username);
  if (!user) throw new Error('user not created');
  await app.quotaService.grant(user.id, 'comics', counts);
  const workId = await app.works.create(user.id, { type, title: '测试作品', text: '从前有座山。' });
  return { userId: user.id, workId };
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves when the signal aborts (with its reason), so a stage can hang like a long render. */
export const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(new Error(String(signal.reason)));
    signal.addEventListener('abort', () => reject(new Error(String(signal.reason))), {
      once: true,
    });
  });

/** A stage that counts its runs and does what `body` says (default: answers `{ <name>: n }`). */
export function countedStage(
  name: string,
  calls: Record<string, number>,
  body?: (ctx: StageContext) => Promise<StageOutputs>,
): StageHandler {
  return {
    name,
    async run(ctx) {
      calls[name] = (calls[name] ?? 0) + 1;
      return body ? body(ctx) : { [name]: calls[name] };
    },
  };
}

export async function queuedJobs(app: FastifyInstance): Promise<number> {
  const schema = bossSchemaOf(app.config.databaseSchema);
  const result = await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM ${sql.table(`${schema}.job`)}
    WHERE name = ${VIDEO_TASK_QUEUE}`.execute(app.db);
  return result.rows[0]?.count ?? 0;
}

/** The pg-boss job that runs the task now. */
export async function jobOf(app: FastifyInstance, taskId: string): Promise<string | null> {
  const row = await app.db
    .selectFrom('video_tasks')
    .select('job_id')
    .where('id', '=', taskId)
    .executeTakeFirst();
  return row?.job_id ?? null;
}

/** A pg-boss job's state ('created', 'active', 'completed', …), or null when it is gone. */
export async function jobState(app: FastifyInstance, jobId: string | null): Promise<string | null> {
  if (!jobId) return null;
  const schema = bossSchemaOf(app.config.databaseSchema);
  const result = await sql<{ state: string }>`
    SELECT state FROM ${sql.table(`${schema}.job`)} WHERE id = ${jobId}::uuid`.execute(app.db);
  return result.rows[0]?.state ?? null;
}
