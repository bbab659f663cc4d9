import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/schema';

export const VIDEO_TASK_QUEUE = 'video-task';

/**
 * pg-boss on the app's own kysely instance rather than a pool of its own: one way to the
 * database, and on the embedded one every pg-boss statement takes its turn at the one session
 * like any other (src/db/pglite-dialect.ts). pg-boss's multi-statement scripts carry their own
 * BEGIN/COMMIT and no parameters, so they go whole in one call.
 */
/** pg-boss's install and migration scripts: `locked()` in its plans.js. */
const OPENS_TRANSACTION = /^\s*BEGIN\s*;/i;

function executor(db: Kysely<Database>) {
  const inFlight = new Set<Promise<unknown>>();
  return {
    executeSql(text: string, values?: unknown[]) {
      const compiled = CompiledQuery.raw(text, values ?? []);
      const query = OPENS_TRANSACTION.test(text)
        ? db.connection().execute(async (connection) => {
            try {
              return await connection.executeQuery(compiled);
            } catch (error) {
              // A script of BEGIN; ...; COMMIT that fails midway leaves its session inside the
              // aborted transaction, and the pool hands that session to the next caller, whose
              // statements then all fail with "current transaction is aborted" (25P02): a
              // worker died of it after losing the race to create pg-boss's schema.
              await connection.executeQuery(CompiledQuery.raw('ROLLBACK')).catch(() => {});
              throw error;
            }
          })
        : db.executeQuery(compiled);
      inFlight.add(query);
      void query.then(
        () => inFlight.delete(query),
        () => inFlight.delete(query),
      );
      return query;
    },
    /**
     * Waits for the statements under way. pg-boss does not await the `complete` / `fail` it
     * writes when a job's handler ends, so one can still be running when its `stop` resolves:
     * the app's pool must not end under it (a stop during a test's teardown saw "Cannot use a
     * pool after calling end on the pool").
     */
    async settled(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    get idle(): boolean {
      return inFlight.size === 0;
    },
  };
}

export interface QueuedJob {
  state: string;
  startedOn: Date | null;
}

export interface TaskQueue {
  /**
   * Enqueues a job for the task through `db`: a transaction's, so the job commits (or not)
   * with the task and its spent count. Answers the job id. Call `wake` after the commit.
   */
  send(taskId: string, db: Kysely<Database>): Promise<string>;
  /** Wakes this process's pollers at once instead of at their next polling interval. */
  wake(): void;
  /** A job's state and start, or null when pg-boss no longer has it. */
  job(jobId: string): Promise<QueuedJob | null>;
  /**
   * Ends jobs whose task was handed to a new job (their worker died, or they wait for a retry
   * of a dead worker's attempt): otherwise an `active` one sits there until it expires (six
   * hours) and then runs again.
   */
  retire(jobIds: string[]): Promise<void>;
  /** Starts `concurrency` pollers, each running one job at a time. */
  work(concurrency: number, handler: (taskId: string) => Promise<void>): Promise<void>;
  /** Stops fetching jobs; the ones in hand go on (a draining process finishes or gives them back). */
  pause(): Promise<void>;
  /** `graceful: false` drops the jobs in hand as pg-boss does on a crash-like stop. */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

/**
 * Runs `start` while this session holds a lock that every process's start on `schema` takes: the
 * lock is a session's (pg-boss's scripts run on the pool's other sessions) and comes off when
 * `start` ends, or with the session if the process dies.
 */
async function oneAtATime<T>(
  db: Kysely<Database>,
  schema: string,
  start: () => Promise<T>,
): Promise<T> {
  const key = sql`hashtext(${`kol_task_queue_start:${schema}`})`;
  return db.connection().execute(async (session) => {
    await sql`SELECT pg_advisory_lock(${key})`.execute(session);
    try {
      return await start();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(session);
    }
  });
}

export interface TaskQueueOptions {
  /** pg-boss's schema (its tables live apart from the app's). */
  schema: string;
  /**
   * Other processes may open the queue on this database at the same moment (PostgreSQL): starts
   * then take turns. Not on the embedded database, whose one session the lock would hold.
   */
  sharedDatabase: boolean;
  /** Run pg-boss's maintenance (expiry, archive) here: processes that work jobs do. */
  supervise: boolean;
  pollingIntervalSeconds?: number;
  onError(error: unknown): void;
}

export async function openTaskQueue(
  db: Kysely<Database>,
  options: TaskQueueOptions,
): Promise<TaskQueue> {
  const statements = executor(db);
  const started = async () => {
    const boss = new PgBoss({
      db: statements,
      schema: options.schema,
      supervise: options.supervise,
      schedule: false,
      migrate: true,
    });
    // pg-boss re-emits worker and maintenance errors here; without a listener they would throw.
    boss.on('error', (error) => options.onError(error));
    await boss.start();
    if (!(await boss.getQueue(VIDEO_TASK_QUEUE))) {
      await boss.createQueue(VIDEO_TASK_QUEUE, {
        name: VIDEO_TASK_QUEUE,
        // A job fails only when the runner itself failed (database gone, process stopping):
        // a stage's failure is recorded on the task and the job completes. So retry it.
        retryLimit: 5,
        retryDelay: 2,
        retryBackoff: true,
        // A long render must not be expired under a live runner; dead ones are found by the
        // runner's lease sweep long before this, and their jobs retired.
        expireInSeconds: 6 * 3600,
      });
    }
    return boss;
  };
  // Processes starting side by side on a fresh database all find pg-boss uninstalled and all
  // install it: its own advisory lock only queues the later ones, whose CREATEs then fail on
  // what the first made (a worker of the scale-out test died of it); and two creating the queue
  // at once deadlock (its partition's foreign key against the other's insert). So on a shared
  // database the starts take turns under a lock of ours, and a later one finds both done.
  const boss = options.sharedDatabase
    ? await oneAtATime(db, options.schema, started)
    : await started();
  const workerIds: string[] = [];
  /** Handlers running now: a stop waits for them and for what pg-boss writes after them. */
  const handling = new Set<Promise<void>>();
  /** Paused or stopping: a job fetched from now on is handed back, not run. */
  let closing = false;
  return {
    async send(taskId, trx) {
      const id = randomUUID();
      await boss.send(VIDEO_TASK_QUEUE, { taskId }, { id, db: executor(trx) });
      return id;
    },
    wake() {
      for (const id of workerIds) boss.notifyWorker(id);
    },
    async job(jobId) {
      const job = await boss.getJobById(VIDEO_TASK_QUEUE, jobId);
      return job ? { state: job.state, startedOn: job.startedOn ?? null } : null;
    },
    async retire(jobIds) {
      // cancel ends a job in any unfinished state (created, retry, active).
      if (jobIds.length > 0) await boss.cancel(VIDEO_TASK_QUEUE, jobIds);
    },
    async work(concurrency, handler) {
      for (let i = 0; i < concurrency; i += 1) {
        const index = workerIds.length;
        const id = await boss.work<{ taskId: string }>(
          VIDEO_TASK_QUEUE,
          { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
          async ([job]) => {
            if (!job) return;
            // pg-boss's offWork does not wait for a poll already under way: its jobs arrive
            // after the stop. Failing the job hands it back (pg-boss retries it, elsewhere or
            // at this process's next start) instead of starting work on a process going away.
            if (closing) throw new Error('the task queue is stopping');
            const run = handler(job.data.taskId);
            handling.add(run);
            try {
              await run;
            } finally {
              handling.delete(run);
              // pg-boss waits out the rest of the polling interval even after a job, so a
              // poller would take one short job (a picture) per interval while others queue.
              // Notified, it fetches the next at once; an empty fetch waits as before.
              const self = workerIds[index];
              if (self) boss.notifyWorker(self);
            }
          },
        );
        workerIds.push(id);
      }
    },
    async pause() {
      closing = true;
      if (workerIds.length > 0) await boss.offWork(VIDEO_TASK_QUEUE);
    },
    async stop({ graceful = true } = {}) {
      closing = true;
      await boss.stop({ graceful, close: false, timeout: 30_000 });
      // pg-boss's stop resolves with polls and job writes (complete, fail: not awaited by it)
      // still under way, each issuing its next statement a few turns later. A statement after
      // the database closed rejected with nobody to catch it, failing the test that had
      // started the worker. So: until no statement, no handler, and a full turn found none.
      for (;;) {
        await statements.settled();
        await Promise.allSettled([...handling]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (statements.idle && handling.size === 0) break;
      }
    },
  };
}
