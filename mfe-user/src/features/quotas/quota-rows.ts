import {
  QUOTA_FIELDS,
  SPENT_QUOTA_TYPES,
  QUOTA_TYPE_LABELS,
  type QuotaType,
  type UsageLimits,
} from '@kol/shared-sdk';

/** One line of the quota table; null where the type has no such count. */
export interface QuotaRow {
  type: QuotaType;
  label: string;
  remaining: number;
  reward: number | null;
  merge: number | null;
}

/**
 * Every quota type some video type spends, in the SDK's order, read through the SDK's field
 * map. Counts no page spends (搜索视频) are left out: a creator cannot use them.
 */
export function quotaRows(limits: UsageLimits): QuotaRow[] {
  return SPENT_QUOTA_TYPES.map((type) => {
    const fields: {
      gen: keyof UsageLimits;
      reward: keyof UsageLimits | null;
      merge: keyof UsageLimits | null;
    } = QUOTA_FIELDS[type];
    return {
      type,
      label: QUOTA_TYPE_LABELS[type],
      remaining: limits[fields.gen],
      reward: fields.reward === null ? null : limits[fields.reward],
      merge: fields.merge === null ? null : limits[fields.merge],
    };
  });
}
