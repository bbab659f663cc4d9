import { sql, type Kysely } from 'kysely';
import type { TaskState, TextResult } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

export interface WritingTaskRow {
  id: string;
  userId: number;
  kind: string;
  state: TaskState;
  text: string;
  engine: string;
  error: string | null;
  input: Record<string, unknown>;
  updatedAt: Date;
}

const UNFINISHED = ['queued', 'running'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toResult(
  row: Pick<WritingTaskRow, 'id' | 'state' | 'text' | 'engine' | 'error'>,
): TextResult {
  return { taskId: row.id, state: row.state, text: row.text, engine: row.engine, error: row.error };
}

export function createWritingTasksRepository(db: Kysely<Database>) {
  return {
    async create(task: {
      id: string;
      userId: number;
      kind: string;
      mode: string;
      input: Record<string, unknown>;
      engine: string;
    }): Promise<void> {
      await db
        .insertInto('writing_tasks')
        .values({
          id: task.id,
          user_id: task.userId,
          kind: task.kind,
          mode: task.mode,
          input: JSON.stringify(task.input),
          engine: task.engine,
          state: 'queued',
        })
        .execute();
    },

    async find(id: string): Promise<WritingTaskRow | null> {
      // Not a uuid: no such task (the database would refuse the comparison).
      if (!UUID.test(id)) return null;
      const row = await db
        .selectFrom('writing_tasks')
        .select([
          'id',
          'user_id',
          'kind',
          'state',
          'text',
          'engine',
          'error',
          'input',
          'updated_at',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        userId: row.user_id,
        kind: row.kind,
        // The CHECK constraint keeps state to these values.
        state: row.state as TaskState,
        text: row.text,
        engine: row.engine,
        error: row.error,
        input: row.input,
        updatedAt: row.updated_at,
      };
    },

    /**
     * Progress of an unfinished task. Answers false when the row is no longer unfinished
     * (cancelled elsewhere, or marked failed as stale), so the runner stops.
     */
    async progress(id: string, patch: { text: string; state?: 'running' }): Promise<boolean> {
      const result = await db
        .updateTable('writing_tasks')
        .set({
          text: patch.text,
          ...(patch.state ? { state: patch.state } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .where('state', 'in', UNFINISHED)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Final state; only an unfinished task changes, so a cancel elsewhere is not overwritten. */
    async finish(
      id: string,
      final: { state: 'succeeded' | 'failed' | 'cancelled'; text?: string; error?: string | null },
    ): Promise<boolean> {
      const result = await db
        .updateTable('writing_tasks')
        .set({
          state: final.state,
          ...(final.text !== undefined ? { text: final.text } : {}),
          error: final.error ?? null,
          updated_at: sql`now()`,
          finished_at: sql`now()`,
        })
        .where('id', '=', id)
        .where('state', 'in', UNFINISHED)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Marks failed every unfinished task nobody touched for `staleMs` (their process died). */
    async failStale(staleMs: number, message: string, id?: string): Promise<number> {
      let query = db
        .updateTable('writing_tasks')
        .set({ state: 'failed', error: message, updated_at: sql`now()`, finished_at: sql`now()` })
        .where('state', 'in', UNFINISHED)
        .where('updated_at', '<=', sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`);
      if (id) query = query.where('id', '=', id);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type WritingTasksRepository = ReturnType<typeof createWritingTasksRepository>;
