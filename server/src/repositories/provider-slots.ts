import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Slots of calls in flight per outside service (migration 022), so a limit holds across every
 * API and worker process: a call takes the lowest free slot below the limit, or one whose
 * holder's lease ran out (a process that died); video/provider-limits.ts waits and retries.
 */
export function createProviderSlotsRepository(db: Kysely<Database>) {
  return {
    /** Takes a slot of `provider` for `holder`; null when all `limit` are held. */
    async take(
      provider: string,
      limit: number,
      holder: string,
      leaseMs: number,
    ): Promise<number | null> {
      // Two processes may pick the same free slot at once: the second insert conflicts and
      // takes it only when its lease ran out, else it answers nothing and the caller waits.
      const taken = await sql<{ slot: number }>`
        INSERT INTO provider_slots (provider, slot, holder, expires_at)
        SELECT ${provider}, s, ${holder}, now() + ${leaseMs} * interval '1 millisecond'
          FROM generate_series(0, ${Math.max(1, limit) - 1}) AS s
         WHERE NOT EXISTS (
           SELECT 1 FROM provider_slots p
            WHERE p.provider = ${provider} AND p.slot = s AND p.expires_at > now())
         ORDER BY s
         LIMIT 1
        ON CONFLICT (provider, slot) DO UPDATE
          SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE provider_slots.expires_at <= now()
        RETURNING slot`.execute(db);
      return taken.rows[0]?.slot ?? null;
    },

    /** Gives a slot back (only the holder's own: one taken over after its lease stays). */
    async release(provider: string, slot: number, holder: string): Promise<void> {
      await db
        .deleteFrom('provider_slots')
        .where('provider', '=', provider)
        .where('slot', '=', slot)
        .where('holder', '=', holder)
        .execute();
    },

    /** The slots held now, by provider (ops and tests). */
    async held(provider: string): Promise<number> {
      const row = await db
        .selectFrom('provider_slots')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('provider', '=', provider)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

export type ProviderSlotsRepository = ReturnType<typeof createProviderSlotsRepository>;
