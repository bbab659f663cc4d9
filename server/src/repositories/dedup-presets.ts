import { sql, type Kysely } from 'kysely';
import type { DedupPresets, DedupPresetsRecord } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

/** A user's saved dedup presets of reverse videos (dedup_presets / save_dedup_presets). */
export function createDedupPresetsRepository(db: Kysely<Database>) {
  return {
    /** The saved presets ({} and revision 0 before the first save). */
    async find(userId: number): Promise<DedupPresetsRecord> {
      const row = await db
        .selectFrom('dedup_presets')
        .select(['presets', 'revision'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { presets: (row?.presets ?? {}) as DedupPresets, revision: row?.revision ?? 0 };
    },

    /**
     * Saves the presets when `revision` is still the stored one (0: none stored yet), in one
     * statement; answers the new revision, or null when another save came first.
     */
    async save(userId: number, presets: DedupPresets, revision: number): Promise<number | null> {
      const json = JSON.stringify(presets);
      const row = await db
        .insertInto('dedup_presets')
        .values({ user_id: userId, presets: json })
        .onConflict((conflict) =>
          conflict
            .column('user_id')
            .doUpdateSet({
              presets: json,
              revision: sql<number>`dedup_presets.revision + 1`,
              updated_at: new Date(),
            })
            .where('dedup_presets.revision', '=', revision),
        )
        .returning('revision')
        .executeTakeFirst();
      return row?.revision ?? null;
    },
  };
}

export type DedupPresetsRepository = ReturnType<typeof createDedupPresetsRepository>;
