import { USER_INFO_DEFAULTS, type UsageLimits, type UserInfo } from '@kol/shared-sdk';

export function demoUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    ...USER_INFO_DEFAULTS,
    userId: 7,
    username: 'demo',
    nickname: '小粉',
    phone: '13800000000',
    status: 1,
    templateIds: [0, 1],
    ...overrides,
  };
}

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
