import { sql, type Kysely } from 'kysely';
import type { LoginLimitConfig } from '../config';
import type { Database } from '../db/schema';

/** One counter a login attempt is checked and counted against, with its free attempts. */
export interface LoginAttemptKey {
  key: string;
  free: number;
}

export type LoginAttemptVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

type Timing = Pick<LoginLimitConfig, 'baseDelayMs' | 'maxDelayMs' | 'resetMs'>;

/** The counter of one username tried from one IP (an IP has no spaces, so this cannot collide). */
export const usernameIpKey = (ip: string, username: string) => `user-ip:${ip} ${username}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/**
 * Login attempt counters in the database, so that every server process counts the same
 * attempts. Checking the keys and counting the attempt against them is ONE statement holding
 * the rows' locks, run before the password is hashed: parallel guesses queue on the locks and
 * each one sees the ones before it. One statement rather than a transaction, so that it is
 * atomic also where the statements of several connections share one session (PGlite).
 */
export function createLoginAttemptsRepository(db: Kysely<Database>) {
  return {
    /**
     * Checks an attempt against every key and counts it. Let through only when no key is
     * waiting; then each key's failures grow by one (a success gives its own back with
     * `succeeded`), and a key past its free attempts has to wait: the base delay, doubled for
     * each further attempt, up to the cap. Told to wait, the attempt counts in `attempts` only:
     * it was never checked, so it makes no wait longer.
     */
    async take(keys: LoginAttemptKey[], timing: Timing): Promise<LoginAttemptVerdict> {
      // The rows must exist before the statement below can lock them: it cannot see rows it
      // would insert itself. A row pruned in between makes that statement refuse the attempt,
      // so no attempt is ever let through uncounted.
      await db
        .insertInto('login_attempts')
        .values(keys.map(({ key }) => ({ key })))
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const input = keys.map(({ key, free }) => sql`(${key}::text, ${free}::int)`);
      const reset = sql`${timing.resetMs}::int * interval '1 millisecond'`;
      const { rows } = await sql<{ allowed: boolean; wait_ms: number }>`
        WITH input (key, free) AS (VALUES ${sql.join(input)}),
        -- Locked in key order, so that two attempts sharing keys never wait on each other
        -- crosswise; after a wait, FOR UPDATE answers the row as the other attempt left it.
        locked AS (
          SELECT
            a.key,
            a.failures,
            a.attempts,
            -- Quiet for the reset time and not waiting: its counts no longer count.
            (a.last_attempt_at < clock_timestamp() - ${reset}
              AND (a.blocked_until IS NULL OR a.blocked_until <= clock_timestamp())) AS stale,
            coalesce(ceil(extract(epoch FROM a.blocked_until - clock_timestamp()) * 1000), 0)
              AS wait_ms
          FROM login_attempts AS a
          WHERE a.key IN (SELECT key FROM input)
          ORDER BY a.key
          FOR UPDATE
        ),
        verdict AS (
          SELECT
            count(*) = ${keys.length}
              AND coalesce(max(CASE WHEN stale THEN 0 ELSE wait_ms END), 0) <= 0 AS allowed,
            greatest(
              coalesce(max(CASE WHEN stale THEN 0 ELSE wait_ms END), 0),
              CASE WHEN count(*) < ${keys.length} THEN 1000 ELSE 0 END
            )::int AS wait_ms
          FROM locked
        ),
        next AS (
          SELECT
            l.key,
            i.free,
            (CASE WHEN l.stale THEN 0 ELSE l.failures END)
              + (CASE WHEN v.allowed THEN 1 ELSE 0 END) AS failures,
            (CASE WHEN l.stale THEN 0 ELSE l.attempts END) + 1 AS attempts
          FROM locked AS l JOIN input AS i USING (key) CROSS JOIN verdict AS v
        )
        UPDATE login_attempts AS a
        SET failures = n.failures,
            attempts = n.attempts,
            blocked_until = CASE
              WHEN NOT v.allowed THEN a.blocked_until
              WHEN n.failures < n.free THEN NULL
              -- The exponent is capped so that a long run cannot overflow.
              ELSE clock_timestamp() + least(
                ${timing.baseDelayMs}::float8 * power(2, least(n.failures - n.free, 30)),
                ${timing.maxDelayMs}::float8
              ) * interval '1 millisecond'
            END,
            last_attempt_at = clock_timestamp()
        FROM next AS n CROSS JOIN verdict AS v
        WHERE a.key = n.key
        RETURNING v.allowed, v.wait_ms`.execute(db);
      const verdict = rows[0];
      // Nothing updated: every row was pruned between the two statements.
      if (!verdict) return { allowed: false, retryAfterMs: 1000 };
      return verdict.allowed
        ? { allowed: true }
        : { allowed: false, retryAfterMs: verdict.wait_ms };
    },

    /**
     * A login succeeded: its username's key from this IP starts over, and the IP's key gets
     * back the one failure counted for this attempt (not more: signing in to one's own account
     * must not wipe out guesses made at others).
     */
    async succeeded(resetKey: string, refundKey: string): Promise<void> {
      // Two statements of one row each: no lock order to get wrong against `take`.
      await db
        .updateTable('login_attempts')
        .set({ failures: 0, attempts: 0, blocked_until: null })
        .where('key', '=', resetKey)
        .execute();
      await db
        .updateTable('login_attempts')
        .set({ failures: sql`greatest(failures - 1, 0)` })
        .where('key', '=', refundKey)
        .execute();
    },

    /** Deletes the rows that no longer count, which keeps the table small without a timer. */
    async prune(resetMs: number): Promise<void> {
      // SKIP LOCKED: a row an attempt holds is in use, and waiting for it could deadlock with
      // that attempt, which locks its rows one by one.
      await sql`
        DELETE FROM login_attempts
        WHERE key IN (
          SELECT key FROM login_attempts
          WHERE last_attempt_at < clock_timestamp() - ${resetMs}::int * interval '1 millisecond'
            AND (blocked_until IS NULL OR blocked_until <= clock_timestamp())
          FOR UPDATE SKIP LOCKED
        )`.execute(db);
    },

    /** The counts of one key, for tests and diagnostics; null when it has none. */
    async find(key: string) {
      return (
        (await db
          .selectFrom('login_attempts')
          .select(['key', 'failures', 'attempts', 'blocked_until', 'last_attempt_at'])
          .where('key', '=', key)
          .executeTakeFirst()) ?? null
      );
    },
  };
}

export type LoginAttemptsRepository = ReturnType<typeof createLoginAttemptsRepository>;
