import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { QuotaType } from '@kol/shared-sdk/contracts';
import type { Database, VideoTaskState } from '../db/schema';
import { createQuotaService, type QuotaBucket } from './quotas';

export interface VideoTaskRow {
  id: string;
  work_id: number | null;
  user_id: number;
  type: number;
  kind: string;
  input: Record<string, unknown>;
  state: VideoTaskState;
  stage: string;
  progress: number;
  eta_seconds: number | null;
  quota_type: string | null;
  quota_bucket: QuotaBucket | null;
  error: string | null;
  outputs: Record<string, unknown>;
  started_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export interface VideoTaskStageRow {
  name: string;
  position: number;
  weight: number;
  state: VideoTaskState;
  progress: number;
  outputs: Record<string, unknown> | null;
  error: string | null;
  attempts: number;
}

const TASK_COLUMNS = [
  'id',
  'work_id',
  'user_id',
  'type',
  'kind',
  'input',
  'state',
  'stage',
  'progress',
  'eta_seconds',
  'quota_type',
  'quota_bucket',
  'error',
  'outputs',
  'started_at',
  'created_at',
  'updated_at',
  'finished_at',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const UNFINISHED: VideoTaskState[] = ['queued', 'running'];

/** `now() - ms` in SQL. */
const ago = (ms: number) => sql<Date>`now() - make_interval(secs => ${ms / 1000}::float8)`;

/**
 * The stage writes of a runner count only while it still holds the task (its lease, state
 * running): a cancelled task, or one another runner took over, ignores them.
 */
const heldBy =
  (taskId: string, runnerId: string) => (eb: ExpressionBuilder<Database, 'video_task_stages'>) =>
    eb.exists(
      eb
        .selectFrom('video_tasks')
        .select(sql`1`.as('one'))
        .where('video_tasks.id', '=', taskId)
        .where('video_tasks.runner_id', '=', runnerId)
        .where('video_tasks.state', '=', 'running'),
    );

/** SQL of video tasks and their stages. The runner and the task service are its only users. */
export function createVideoTasksRepository(db: Kysely<Database>) {
  const repo = {
    /** Inserts the task and its stages (inside the caller's transaction, with the spend). */
    async create(task: {
      id: string;
      workId: number | null;
      userId: number;
      type: number;
      kind: string;
      input: Record<string, unknown>;
      /** The count spent to start it, given back if it fails; null when it cost nothing. */
      spent: { quotaType: QuotaType; bucket: QuotaBucket } | null;
      stages: Array<{ name: string; weight: number }>;
      /** The pg-boss job sent in the same transaction. */
      jobId: string;
    }): Promise<void> {
      await db
        .insertInto('video_tasks')
        .values({
          id: task.id,
          work_id: task.workId,
          user_id: task.userId,
          type: task.type,
          kind: task.kind,
          input: JSON.stringify(task.input),
          quota_type: task.spent?.quotaType ?? null,
          quota_bucket: task.spent?.bucket ?? null,
          eta_seconds: null,
          error: null,
          runner_id: null,
          job_id: task.jobId,
          stage: task.stages[0]?.name ?? '',
        })
        .execute();
      await db
        .insertInto('video_task_stages')
        .values(
          task.stages.map((stage, position) => ({
            task_id: task.id,
            name: stage.name,
            position,
            weight: stage.weight,
            error: null,
          })),
        )
        .execute();
    },

    async find(taskId: string): Promise<VideoTaskRow | null> {
      const row = await db
        .selectFrom('video_tasks')
        .select(TASK_COLUMNS)
        .where('id', '=', taskId)
        .executeTakeFirst();
      return row ?? null;
    },

    /** A task of this user (null for another user's: the caller answers "not found"). */
    async findOwned(userId: number, taskId: string): Promise<VideoTaskRow | null> {
      // A task id from a query string: not a uuid is simply not a task (no SQL error).
      if (!UUID.test(taskId)) return null;
      const row = await db
        .selectFrom('video_tasks')
        .select(TASK_COLUMNS)
        .where('id', '=', taskId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ?? null;
    },

    /** The newest task of these kinds of a work of this user (`succeeded`: the newest made). */
    async latestForWork(
      userId: number,
      workId: number,
      kinds: string[] = ['video', 'merge'],
      options: { succeeded?: boolean } = {},
    ): Promise<VideoTaskRow | null> {
      const row = await db
        .selectFrom('video_tasks')
        .select(TASK_COLUMNS)
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .where('kind', 'in', kinds)
        .$if(options.succeeded === true, (q) => q.where('state', '=', 'succeeded'))
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ?? null;
    },

    /** latestForWork of many works in one query: by work id, works without a task left out. */
    async latestForWorks(
      userId: number,
      workIds: number[],
      kinds: string[] = ['video', 'merge'],
    ): Promise<Map<number, VideoTaskRow>> {
      if (workIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('video_tasks')
        .select(TASK_COLUMNS)
        .distinctOn('work_id')
        .where('work_id', 'in', workIds)
        .where('user_id', '=', userId)
        .where('kind', 'in', kinds)
        .orderBy('work_id')
        .orderBy('created_at', 'desc')
        .execute();
      return new Map(rows.map((row) => [row.work_id ?? 0, row]));
    },

    /** A queued or running task of these kinds of a work, if any. */
    async activeOfWork(workId: number, kinds: string[]): Promise<{ id: string } | null> {
      const row = await db
        .selectFrom('video_tasks')
        .select('id')
        .where('work_id', '=', workId)
        .where('kind', 'in', kinds)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return row ?? null;
    },

    /** The outputs of the newest finished video of a work (the editor and merges start there). */
    async latestVideoOutputs(
      userId: number,
      workId: number,
    ): Promise<Record<string, unknown> | null> {
      const task = await db
        .selectFrom('video_tasks')
        .select('outputs')
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .where('kind', '=', 'video')
        .where('state', '=', 'succeeded')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return task?.outputs ?? null;
    },

    async stages(taskId: string): Promise<VideoTaskStageRow[]> {
      return db
        .selectFrom('video_task_stages')
        .select(['name', 'position', 'weight', 'state', 'progress', 'outputs', 'error', 'attempts'])
        .where('task_id', '=', taskId)
        .orderBy('position')
        .execute();
    },

    /**
     * Takes the task for a runner: free, already this runner's, or its holder silent for
     * `leaseMs`. Answers the task, or null when it is finished or another live runner has it.
     */
    async claim(taskId: string, runnerId: string, leaseMs: number): Promise<VideoTaskRow | null> {
      const row = await db
        .updateTable('video_tasks')
        .set({
          state: 'running',
          runner_id: runnerId,
          heartbeat_at: sql`now()`,
          started_at: sql`coalesce(started_at, now())`,
          updated_at: sql`now()`,
        })
        .where('id', '=', taskId)
        .where('state', 'in', UNFINISHED)
        .where((eb) =>
          eb.or([
            eb('runner_id', 'is', null),
            eb('runner_id', '=', runnerId),
            eb('heartbeat_at', '<', ago(leaseMs)),
          ]),
        )
        .returning(TASK_COLUMNS)
        .executeTakeFirst();
      return row ?? null;
    },

    /** Answers false when the task is no longer this runner's to run (cancelled, taken). */
    async heartbeat(taskId: string, runnerId: string): Promise<boolean> {
      const result = await db
        .updateTable('video_tasks')
        .set({ heartbeat_at: sql`now()` })
        .where('id', '=', taskId)
        .where('runner_id', '=', runnerId)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Gives the task up without finishing it (shutdown): the next runner resumes it. */
    async release(taskId: string, runnerId: string): Promise<void> {
      await db
        .updateTable('video_task_stages')
        .set({ state: 'queued', progress: 0 })
        .where('task_id', '=', taskId)
        .where('state', '=', 'running')
        .where(heldBy(taskId, runnerId))
        .execute();
      await db
        .updateTable('video_tasks')
        .set({ runner_id: null, heartbeat_at: null, eta_seconds: null, updated_at: sql`now()` })
        .where('id', '=', taskId)
        .where('runner_id', '=', runnerId)
        .execute();
    },

    async startStage(
      taskId: string,
      runnerId: string,
      name: string,
      overall: number,
    ): Promise<number | null> {
      const row = await db
        .updateTable('video_task_stages')
        .set({
          state: 'running',
          progress: 0,
          error: null,
          attempts: sql`attempts + 1`,
          started_at: sql`now()`,
        })
        .where('task_id', '=', taskId)
        .where('name', '=', name)
        .where(heldBy(taskId, runnerId))
        .returning('attempts')
        .executeTakeFirst();
      if (!row) return null;
      await db
        .updateTable('video_tasks')
        .set({ stage: name, progress: overall, updated_at: sql`now()` })
        .where('id', '=', taskId)
        .where('runner_id', '=', runnerId)
        .execute();
      return row.attempts;
    },

    async progress(
      taskId: string,
      runnerId: string,
      name: string,
      stageProgress: number,
      overall: number,
      etaSeconds: number | null,
    ): Promise<void> {
      await db
        .updateTable('video_task_stages')
        .set({ progress: stageProgress })
        .where('task_id', '=', taskId)
        .where('name', '=', name)
        .where('state', '=', 'running')
        .where(heldBy(taskId, runnerId))
        .execute();
      await db
        .updateTable('video_tasks')
        .set({ progress: overall, eta_seconds: etaSeconds, updated_at: sql`now()` })
        .where('id', '=', taskId)
        .where('runner_id', '=', runnerId)
        .where('state', '=', 'running')
        .execute();
    },

    /** Records a finished stage and its outputs; false when the runner no longer holds the task. */
    async finishStage(
      taskId: string,
      runnerId: string,
      name: string,
      outputs: Record<string, unknown>,
      overall: number,
    ): Promise<boolean> {
      const result = await db
        .updateTable('video_task_stages')
        .set({
          state: 'succeeded',
          progress: 100,
          outputs: JSON.stringify(outputs),
          finished_at: sql`now()`,
        })
        .where('task_id', '=', taskId)
        .where('name', '=', name)
        .where(heldBy(taskId, runnerId))
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await db
        .updateTable('video_tasks')
        .set({ progress: overall, updated_at: sql`now()` })
        .where('id', '=', taskId)
        .where('runner_id', '=', runnerId)
        .execute();
      return true;
    },

    async succeed(
      taskId: string,
      runnerId: string,
      outputs: Record<string, unknown>,
    ): Promise<VideoTaskRow | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('video_tasks')
          .set({
            state: 'succeeded',
            progress: 100,
            eta_seconds: 0,
            outputs: JSON.stringify(outputs),
            runner_id: null,
            updated_at: sql`now()`,
            finished_at: sql`now()`,
          })
          .where('id', '=', taskId)
          .where('runner_id', '=', runnerId)
          .where('state', '=', 'running')
          .returning(TASK_COLUMNS)
          .executeTakeFirst();
        // A work with a finished video is a creation (作品, flag 1) rather than a draft; the
        // user may move it back (update_video_status) until the next video is made.
        if (row?.work_id && (row.kind === 'video' || row.kind === 'merge')) {
          await trx.updateTable('works').set({ flag: 1 }).where('id', '=', row.work_id).execute();
        }
        return row ?? null;
      });
    },

    /**
     * Marks the task (and the stage, when given) failed. With `refund`, gives the spent count
     * back in the same transaction, at most once: refunded_at is set by the same UPDATE that
     * finds it empty. `runnerId` null: a task no runner holds (it could not be enqueued).
     */
    async fail(
      taskId: string,
      runnerId: string | null,
      stage: string | null,
      error: string,
      refund: boolean,
    ): Promise<{ task: VideoTaskRow; refunded: boolean } | null> {
      return db.transaction().execute(async (trx) => {
        // The row lock makes a concurrent cancel or second failure wait and then find the task
        // finished. The state changes LAST: PGlite is one session, where another connection
        // may read between these statements, and "failed" must not show before the refund.
        let query = trx
          .selectFrom('video_tasks')
          .select(['user_id', 'quota_type', 'quota_bucket', 'refunded_at'])
          .where('id', '=', taskId)
          .where('state', 'in', UNFINISHED);
        query =
          runnerId === null
            ? query.where('runner_id', 'is', null)
            : query.where('runner_id', '=', runnerId);
        const held = await query.forUpdate().executeTakeFirst();
        if (!held) return null;
        const spent =
          refund && held.refunded_at === null && held.quota_type && held.quota_bucket
            ? { quotaType: held.quota_type as QuotaType, bucket: held.quota_bucket }
            : null;
        if (spent) {
          await createQuotaService(trx).refund(held.user_id, spent.quotaType, spent.bucket);
        }
        if (stage !== null) {
          await trx
            .updateTable('video_task_stages')
            .set({ state: 'failed', error, finished_at: sql`now()` })
            .where('task_id', '=', taskId)
            .where('name', '=', stage)
            .execute();
        }
        const task = await trx
          .updateTable('video_tasks')
          .set({
            state: 'failed',
            error,
            eta_seconds: null,
            runner_id: null,
            ...(spent ? { refunded_at: sql`now()` } : {}),
            updated_at: sql`now()`,
            finished_at: sql`now()`,
          })
          .where('id', '=', taskId)
          .returning(TASK_COLUMNS)
          .executeTakeFirstOrThrow();
        return { task, refunded: spent !== null };
      });
    },

    /** The user's cancel: the task and its unfinished stages. Answers the task, null if not cancellable. */
    async cancel(userId: number, taskId: string): Promise<VideoTaskRow | null> {
      const task = await db
        .updateTable('video_tasks')
        .set({
          state: 'cancelled',
          eta_seconds: null,
          runner_id: null,
          updated_at: sql`now()`,
          finished_at: sql`now()`,
        })
        .where('id', '=', taskId)
        .where('user_id', '=', userId)
        .where('state', 'in', UNFINISHED)
        .returning(TASK_COLUMNS)
        .executeTakeFirst();
      if (!task) return null;
      await db
        .updateTable('video_task_stages')
        .set({ state: 'cancelled', finished_at: sql`now()` })
        .where('task_id', '=', taskId)
        .where('state', 'in', UNFINISHED)
        .execute();
      return task;
    },

    /**
     * Running tasks whose runner is gone: released (runner_id null) or silent for `leaseMs`.
     * `leaseMs` 0 at the start of the only process (embedded database): every one of them.
     */
    async orphans(leaseMs: number): Promise<Array<{ id: string; jobId: string | null }>> {
      const rows = await db
        .selectFrom('video_tasks')
        .select(['id', 'job_id'])
        .where('state', '=', 'running')
        .where((eb) =>
          leaseMs <= 0
            ? eb.val(true)
            : eb.or([eb('runner_id', 'is', null), eb('heartbeat_at', '<', ago(leaseMs))]),
        )
        .execute();
      return rows.map((row) => ({ id: row.id, jobId: row.job_id }));
    },

    /** The unfinished tasks per type and state (the metrics' gauges). */
    async countUnfinished(): Promise<Array<{ type: number; state: string; count: number }>> {
      const rows = await db
        .selectFrom('video_tasks')
        .select(['type', 'state', (eb) => eb.fn.countAll<string>().as('count')])
        .where('state', 'in', UNFINISHED)
        .groupBy(['type', 'state'])
        .execute();
      return rows.map((row) => ({
        type: row.type,
        state: row.state,
        count: Number(row.count),
      }));
    },

    /** Seconds the oldest queued task has waited, 0 when none waits (the metrics' gauge). */
    async oldestQueuedSeconds(): Promise<number> {
      const row = await db
        .selectFrom('video_tasks')
        .select(sql<string | null>`extract(epoch from now() - min(created_at))`.as('seconds'))
        .where('state', '=', 'queued')
        .executeTakeFirst();
      return Math.max(0, Number(row?.seconds ?? 0));
    },

    /** Tasks not started yet that have waited at least `waitedMs`, with their job. */
    async waiting(waitedMs: number): Promise<Array<{ id: string; jobId: string | null }>> {
      const rows = await db
        .selectFrom('video_tasks')
        .select(['id', 'job_id'])
        .where('state', '=', 'queued')
        .where('updated_at', '<=', ago(waitedMs))
        .execute();
      return rows.map((row) => ({ id: row.id, jobId: row.job_id }));
    },

    /** Records the job that now runs the task (a re-enqueue after its runner or job was lost). */
    async setJob(taskId: string, jobId: string): Promise<void> {
      await db.updateTable('video_tasks').set({ job_id: jobId }).where('id', '=', taskId).execute();
    },

    /** Frees the lease of these tasks, so the runner that re-enqueues them can claim them. */
    async freeLeases(taskIds: string[]): Promise<void> {
      if (taskIds.length === 0) return;
      await db
        .updateTable('video_tasks')
        .set({ runner_id: null })
        .where('id', 'in', taskIds)
        .where('state', '=', 'running')
        .execute();
    },
  };
  return repo;
}

export type VideoTasksRepository = ReturnType<typeof createVideoTasksRepository>;
