import { sql, type Kysely } from 'kysely';
import { QUOTA_FIELDS, QUOTA_TYPES, type QuotaType } from '@kol/shared-sdk/contracts';
import type { UsageLimits } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

/** The count a spend took, so a failed task can give back the very same one. */
export type QuotaBucket = 'gen' | 'reward' | 'merge';

export interface QuotaCounts {
  gen: number;
  reward: number;
  merge: number;
}

/**
 * Remaining counts per user and quota type. The generation endpoints of later issues call
 * `spend` before they start a task and `refund` when it fails.
 */
export function createQuotaService(db: Kysely<Database>) {
  return {
    /**
     * Spends one count in ONE statement: for 'gen' the regular count first, then the reward
     * count; for 'merge' the merge count. The row lock of the UPDATE makes concurrent spends
     * queue, and PostgreSQL re-checks the WHERE on the row as the previous spender left it, so
     * a count is never spent twice. Answers the bucket taken, or null when none is left.
     */
    async spend(
      userId: number,
      quotaType: QuotaType,
      kind: 'gen' | 'merge',
    ): Promise<QuotaBucket | null> {
      if (kind === 'merge' && QUOTA_FIELDS[quotaType].merge === null) {
        throw new Error(`quota type ${quotaType} has no merge count`);
      }
      const query = db
        .updateTable('user_quotas')
        .where('user_id', '=', userId)
        .where('quota_type', '=', quotaType);
      const row =
        kind === 'gen'
          ? await query
              // Every SET expression reads the row as it was before this UPDATE.
              .set({
                last_spent_bucket: sql<string>`CASE WHEN gen > 0 THEN 'gen' ELSE 'reward' END`,
                gen: sql<number>`CASE WHEN gen > 0 THEN gen - 1 ELSE gen END`,
                reward: sql<number>`CASE WHEN gen > 0 THEN reward ELSE reward - 1 END`,
              })
              // Parenthesised: the WHERE joins it with AND, and AND binds tighter than OR.
              .where(sql<boolean>`(gen > 0 OR reward > 0)`)
              .returning('last_spent_bucket')
              .executeTakeFirst()
          : await query
              .set({ last_spent_bucket: 'merge', merge: sql<number>`merge - 1` })
              .where('merge', '>', 0)
              .returning('last_spent_bucket')
              .executeTakeFirst();
      const bucket = row?.last_spent_bucket;
      return bucket === 'gen' || bucket === 'reward' || bucket === 'merge' ? bucket : null;
    },

    /** Gives back one count to the bucket a spend took. */
    async refund(userId: number, quotaType: QuotaType, bucket: QuotaBucket): Promise<void> {
      await db
        .insertInto('user_quotas')
        .values({ user_id: userId, quota_type: quotaType, [bucket]: 1, last_spent_bucket: null })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'quota_type'])
            .doUpdateSet({ [bucket]: sql<number>`user_quotas.${sql.ref(bucket)} + 1` }),
        )
        .execute();
    },

    /** Adds (or, when negative, takes away down to 0) counts; answers the counts after. */
    async grant(
      userId: number,
      quotaType: QuotaType,
      delta: Partial<QuotaCounts>,
    ): Promise<QuotaCounts> {
      const gen = delta.gen ?? 0;
      const reward = delta.reward ?? 0;
      const merge = delta.merge ?? 0;
      const row = await db
        .insertInto('user_quotas')
        .values({
          user_id: userId,
          quota_type: quotaType,
          gen: Math.max(0, gen),
          reward: Math.max(0, reward),
          merge: Math.max(0, merge),
          last_spent_bucket: null,
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'quota_type']).doUpdateSet({
            gen: sql<number>`greatest(0, user_quotas.gen + ${gen})`,
            reward: sql<number>`greatest(0, user_quotas.reward + ${reward})`,
            merge: sql<number>`greatest(0, user_quotas.merge + ${merge})`,
          }),
        )
        .returning(['gen', 'reward', 'merge'])
        .executeTakeFirstOrThrow();
      return row;
    },

    async counts(userId: number, quotaType: QuotaType): Promise<QuotaCounts> {
      const row = await db
        .selectFrom('user_quotas')
        .select(['gen', 'reward', 'merge'])
        .where('user_id', '=', userId)
        .where('quota_type', '=', quotaType)
        .executeTakeFirst();
      return row ?? { gen: 0, reward: 0, merge: 0 };
    },

    /** The 24 fields of get_user_limit_info, built from shared-sdk's QUOTA_FIELDS. */
    async limits(userId: number): Promise<UsageLimits> {
      const rows = await db
        .selectFrom('user_quotas')
        .select(['quota_type', 'gen', 'reward', 'merge'])
        .where('user_id', '=', userId)
        .execute();
      const byType = new Map(rows.map((row) => [row.quota_type, row]));
      const limits = {} as Record<keyof UsageLimits, number>;
      for (const type of QUOTA_TYPES) {
        const fields = QUOTA_FIELDS[type];
        const row = byType.get(type);
        limits[fields.gen] = row?.gen ?? 0;
        if (fields.reward) limits[fields.reward] = row?.reward ?? 0;
        if (fields.merge) limits[fields.merge] = row?.merge ?? 0;
      }
      return limits;
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
