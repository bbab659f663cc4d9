import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Which call, of which user, under which key; `fingerprint` hashes what it asked. */
export interface IdempotentCall {
  userId: number;
  /** 'POST /api/video/save_text' */
  route: string;
  key: string;
  fingerprint: string;
}

/** A call that holds its key: only it stores the answer or frees the key. */
export interface HeldKey extends IdempotentCall {
  owner: string;
}

export type IdempotencyClaim =
  /** The key is new (or forgotten, or its call died): this call does the work. */
  | { kind: 'claimed'; held: HeldKey }
  /** An earlier call with the key has answered: its answer, to be replayed. */
  | { kind: 'done'; statusCode: number; response: string }
  /** An earlier call with the key is still working. */
  | { kind: 'running' }
  /** The key was given to a call that asked something else. */
  | { kind: 'mismatch' };

const ms = (value: number) => sql`${value}::int * interval '1 millisecond'`;

/**
 * Idempotency keys of the create calls (migrations/018). Every statement decides on the
 * database's clock and in one statement, so API processes sharing one PostgreSQL (and the
 * interleaved statements of PGlite's one session) agree on who holds a key.
 */
export function createIdempotencyKeysRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes the key for this call, or says what holds it. A row is taken over when it has
     * expired (a new call, whatever it asks), or when it is still running past its lock with
     * the same request (its call died with its process).
     */
    async claim(
      call: IdempotentCall,
      timing: { ttlMs: number; lockMs: number },
    ): Promise<IdempotencyClaim> {
      const owner = randomUUID();
      const taken = await db
        .insertInto('idempotency_keys')
        .values({
          user_id: call.userId,
          route: call.route,
          key: call.key,
          fingerprint: call.fingerprint,
          owner,
          locked_until: sql<Date>`clock_timestamp() + ${ms(timing.lockMs)}`,
          expires_at: sql<Date>`clock_timestamp() + ${ms(timing.ttlMs)}`,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'route', 'key'])
            .doUpdateSet({
              fingerprint: sql`excluded.fingerprint`,
              state: 'running',
              owner: sql`excluded.owner`,
              locked_until: sql`excluded.locked_until`,
              status_code: null,
              response: null,
              expires_at: sql`excluded.expires_at`,
            })
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.expires_at', '<=', sql<Date>`clock_timestamp()`),
                eb.and([
                  eb('idempotency_keys.state', '=', 'running'),
                  eb('idempotency_keys.locked_until', '<=', sql<Date>`clock_timestamp()`),
                  eb('idempotency_keys.fingerprint', '=', call.fingerprint),
                ]),
              ]),
            ),
        )
        .returning('owner')
        .executeTakeFirst();
      if (taken?.owner === owner) return { kind: 'claimed', held: { ...call, owner } };
      const row = await db
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'state', 'status_code', 'response'])
        .where('user_id', '=', call.userId)
        .where('route', '=', call.route)
        .where('key', '=', call.key)
        .executeTakeFirst();
      // Freed in between (its call failed): the caller tries again and takes it.
      if (!row) return { kind: 'running' };
      if (row.fingerprint !== call.fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done' && row.response !== null) {
        return { kind: 'done', statusCode: row.status_code ?? 200, response: row.response };
      }
      return { kind: 'running' };
    },

    /** Stores the answer of the call that holds the key; false when it no longer holds it. */
    async complete(held: HeldKey, statusCode: number, response: string): Promise<boolean> {
      const result = await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', status_code: statusCode, response })
        .where('user_id', '=', held.userId)
        .where('route', '=', held.route)
        .where('key', '=', held.key)
        .where('owner', '=', held.owner)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The call failed: nothing was made, so the key is freed for a retry to do the work. */
    async release(held: HeldKey): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', held.userId)
        .where('route', '=', held.route)
        .where('key', '=', held.key)
        .where('owner', '=', held.owner)
        .where('state', '=', 'running')
        .execute();
    },

    /** Deletes the expired keys; answers how many. */
    async sweep(): Promise<number> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('expires_at', '<=', sql<Date>`clock_timestamp()`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyKeysRepository = ReturnType<typeof createIdempotencyKeysRepository>;
