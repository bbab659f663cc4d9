import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { randomSecret, sha256 } from '../security/secrets';
import type { UserRecord } from './users';

export interface SessionOptions {
  ttlMs: number;
  ip: string;
  userAgent: string;
}

/**
 * Sessions live in the database, so any server process can answer any request. Only the
 * sha256 of the cookie value is stored.
 */
export function createSessionsRepository(db: Kysely<Database>) {
  return {
    /** Starts a session and answers the raw id for the cookie. */
    async create(userId: number, options: SessionOptions): Promise<string> {
      const id = randomSecret();
      await db
        .insertInto('sessions')
        .values({
          id_hash: sha256(id),
          user_id: userId,
          expires_at: new Date(Date.now() + options.ttlMs),
          ip: options.ip,
          user_agent: options.userAgent.slice(0, 500),
        })
        .execute();
      return id;
    },

    /** Sessions not expired (the metrics' gauge). */
    async countActive(): Promise<number> {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('expires_at', '>', new Date())
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /**
     * The signed-in user of a cookie value, if the session is live and the user not disabled,
     * with the session's expiry (for sliding renewal). One query on the hot path.
     */
    async findUser(id: string): Promise<{ user: UserRecord; expiresAt: Date } | undefined> {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select('sessions.expires_at as session_expires_at')
        .where('sessions.id_hash', '=', sha256(id))
        .where('sessions.expires_at', '>', sql<Date>`now()`)
        .where('users.disabled', '=', false)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_expires_at: expiresAt, ...user } = row;
      return { user, expiresAt };
    },

    async extend(id: string, ttlMs: number): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + ttlMs) })
        .where('id_hash', '=', sha256(id))
        .execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', sha256(id)).execute();
    },

    async deleteForUser(userId: number): Promise<void> {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    async purgeExpired(): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where('expires_at', '<=', sql<Date>`now()`)
        .execute();
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
