import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './db/schema';
import { migrate } from './db/migrate';
import { isEnvError, readEnv } from './env';
import { MIGRATIONS_DIR } from './paths';
import { registerVideoPipelines } from './tasks/pipelines';
import { bossSchemaOf } from './tasks/plugin';
import { openTaskQueue } from './tasks/queue';
import { PipelineRegistry } from './tasks/registry';
import { VideoTaskService } from './tasks/service';

/**
 * `pnpm --filter @kol/server worker`: runs video task jobs only, for installations with
 * separate worker processes (set VIDEO_WORKERS_IN_PROCESS=false on the servers then).
 */
async function main() {
  const env = readEnv();
  if (!('url' in env.app.database)) {
    // Only one process can open PGlite's data directory, and the server already does.
    throw new Error(
      'the worker needs DATABASE_URL: with the embedded database the server runs the jobs itself',
    );
  }
  const log = {
    info: (obj: object, msg?: string) =>
      console.log(JSON.stringify({ level: 'info', msg, ...obj })),
    warn: (obj: object, msg?: string) =>
      console.warn(JSON.stringify({ level: 'warn', msg, ...obj })),
    error: (obj: object, msg?: string) =>
      console.error(JSON.stringify({ level: 'error', msg, ...obj }, errorFields)),
  };
  const pool = new pg.Pool({ connectionString: env.app.database.url, max: 10 });
  pool.on('error', (error) => log.error({ err: error }, 'idle database connection failed'));
  await migrate(pool, MIGRATIONS_DIR());
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const settings = env.app.videoTasks;
  const service = new VideoTaskService({
    db,
    registry: registerVideoPipelines(new PipelineRegistry(), {
      db,
      mediaDir: env.app.mediaDir,
      ...(settings?.renderSize ? { renderSize: settings.renderSize } : {}),
    }),
    log,
    workDir: settings?.workDir ?? 'tasks',
    concurrency: settings?.concurrency,
    leaseMs: settings?.leaseMs,
    takeOverAllOnStart: false,
    openQueue: (supervise) =>
      openTaskQueue(db, {
        schema: bossSchemaOf(env.app.databaseSchema),
        supervise,
        onError: (error) => log.error({ err: error }, 'pg-boss error'),
      }),
  });
  const runner = await service.startWorker();
  log.info({ runner: runner.id, concurrency: runner.concurrency }, 'video task worker started');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info({ signal }, 'worker stopping');
      service
        .stop()
        .then(() => pool.end())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    });
  }
}

/** JSON.stringify leaves an Error's message and stack out; keep them. */
function errorFields(_key: string, value: unknown) {
  return value instanceof Error ? { message: value.message, stack: value.stack } : value;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${isEnvError(error) ? 'Configuration error' : 'Worker failed'}: ${String(error)}\n`,
  );
  process.exit(1);
});
