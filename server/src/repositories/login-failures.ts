import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Failed logins by key ('ip:…' or 'user:…') in the database, so that every server process
 * counts the same attempts.
 */
export function createLoginFailuresRepository(db: Kysely<Database>) {
  return {
    async countSince(key: string, since: Date): Promise<number> {
      const row = await db
        .selectFrom('login_failures')
        .select(sql<number>`count(*)::int`.as('count'))
        .where('key', '=', key)
        .where('failed_at', '>', since)
        .executeTakeFirstOrThrow();
      return row.count;
    },

    async record(keys: string[], pruneBefore: Date): Promise<void> {
      await db
        .insertInto('login_failures')
        .values(keys.map((key) => ({ key })))
        .execute();
      // Old rows no longer count; dropping them here keeps the table small without a timer.
      await db.deleteFrom('login_failures').where('failed_at', '<', pruneBefore).execute();
    },

    async clear(key: string): Promise<void> {
      await db.deleteFrom('login_failures').where('key', '=', key).execute();
    },
  };
}

export type LoginFailuresRepository = ReturnType<typeof createLoginFailuresRepository>;
