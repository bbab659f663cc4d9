import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/schema';

export const VIDEO_TASK_QUEUE = 'video-task';

/**
 * pg-boss on the app's own kysely instance rather than a pool of its own: one way to the
 * database, and on the embedded one every pg-boss statement takes its turn at the one session
 * like any other (src/db/pglite-dialect.ts). pg-boss's multi-statement scripts carry their own
 * BEGIN/COMMIT and no parameters, so they go whole in one call.
 */
function executor(db: Kysely<Database>) {
  const inFlight = new Set<Promise<unknown>>();
  return {
    executeSql(text: string, values?: unknown[]) {
      const query = db.executeQuery(CompiledQuery.raw(text, values ?? []));
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
  /** `graceful: false` drops the jobs in hand as pg-boss does on a crash-like stop. */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

export interface TaskQueueOptions {
  /** pg-boss's schema (its tables live apart from the app's). */
  schema: string;
  /** Run pg-boss's maintenance (expiry, archive) here: processes that work jobs do. */
  supervise: boolean;
  pollingIntervalSeconds?: number;
  onError(error: unknown): void;
}

export async function openTaskQueue(
  db: Kysely<Database>,
  options: TaskQueueOptions,
): Promise<TaskQueue> {
  const sql = executor(db);
  const boss = new PgBoss({
    db: sql,
    schema: options.schema,
    supervise: options.supervise,
    schedule: false,
    migrate: true,
  });
  // pg-boss re-emits worker and maintenance errors here; without a listener they would throw.
  boss.on('error', (error) => options.onError(error));
  await boss.start();
  if (!(await boss.getQueue(VIDEO_TASK_QUEUE))) {
    await boss
      .createQueue(VIDEO_TASK_QUEUE, {
        name: VIDEO_TASK_QUEUE,
        // A job fails only when the runner itself failed (database gone, process stopping):
        // a stage's failure is recorded on the task and the job completes. So retry it.
        retryLimit: 5,
        retryDelay: 2,
        retryBackoff: true,
        // A long render must not be expired under a live runner; dead ones are found by the
        // runner's lease sweep long before this, and their jobs retired.
        expireInSeconds: 6 * 3600,
      })
      .catch(async (error: unknown) => {
        // Another process created it at the same moment.
        if (!(await boss.getQueue(VIDEO_TASK_QUEUE))) throw error;
      });
  }
  const workerIds: string[] = [];
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
            try {
              await handler(job.data.taskId);
            } finally {
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
    async stop({ graceful = true } = {}) {
      await boss.stop({ graceful, close: false, timeout: 30_000 });
      await sql.settled();
    },
  };
}
