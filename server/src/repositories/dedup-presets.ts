import type { Kysely } from 'kysely';
import type { DedupPresets } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

/** A user's saved dedup presets of reverse videos (dedup_presets / save_dedup_presets). */
export function createDedupPresetsRepository(db: Kysely<Database>) {
  return {
    async find(userId: number): Promise<DedupPresets> {
      const row = await db
        .selectFrom('dedup_presets')
        .select('presets')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return (row?.presets ?? {}) as DedupPresets;
    },

    async save(userId: number, presets: DedupPresets): Promise<void> {
      const json = JSON.stringify(presets);
      await db
        .insertInto('dedup_presets')
        .values({ user_id: userId, presets: json })
        .onConflict((conflict) =>
          conflict.column('user_id').doUpdateSet({ presets: json, updated_at: new Date() }),
        )
        .execute();
    },
  };
}

export type DedupPresetsRepository = ReturnType<typeof createDedupPresetsRepository>;
