import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { randomSecret, sha256 } from '../security/secrets';

/** Our own tickets carry this prefix, so /api/sso/verify can tell them from the CAS server's `ST-…`. */
export const LOCAL_TICKET_PREFIX = 'KT-';

export function createTicketsRepository(db: Kysely<Database>) {
  return {
    async issue(userId: number, ttlMs: number): Promise<{ ticket: string; expiresAt: Date }> {
      const ticket = LOCAL_TICKET_PREFIX + randomSecret();
      const expiresAt = new Date(Date.now() + ttlMs);
      await db
        .insertInto('user_tickets')
        .values({
          ticket_hash: sha256(ticket),
          user_id: userId,
          expires_at: expiresAt,
          used_at: null,
        })
        .execute();
      return { ticket, expiresAt };
    },

    /** Marks the ticket used and answers its user; one statement, so a ticket works once. */
    async consume(ticket: string): Promise<number | undefined> {
      const row = await db
        .updateTable('user_tickets')
        .set({ used_at: sql<Date>`now()` })
        .where('ticket_hash', '=', sha256(ticket))
        .where('used_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },
  };
}

export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
