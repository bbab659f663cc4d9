import type { UsageLimits } from '@kol/shared-sdk';

/** Every field distinct, so a table cell shows which field it read. */
export function demoLimits(): UsageLimits {
  return {
    remainGenCount: 11,
    remainRewardsGenerateCount: 12,
    remainMergeCount: 13,
    remainOverseaGenCount: 21,
    remainRewardsOverseaGenerateCount: 22,
    remainOverseaMergeCount: 23,
    remainCutCount: 31,
    remainRewardsDecompressionCount: 32,
    remainCutMergeCount: 33,
    remainOverseaCutCount: 41,
    remainRewardsOverseaDecompressionCount: 42,
    remainOverseaCutMergeCount: 43,
    remainScrollCount: 51,
    remainRewardsRollingCount: 52,
    remainXiGaoCount: 61,
    remainRewardsXiGaoCount: 62,
    remainXiGaoMergeCount: 63,
    remainMarketCount: 71,
    remainRewardsMarketCount: 72,
    remainMarketMergeCount: 73,
    remainSearchVideoCount: 81,
    remainRealPeopleVideoCount: 91,
    remainRewardsRealPeopleVideoCount: 92,
    remainRealPeopleVideoMergeCount: 93,
  };
}
