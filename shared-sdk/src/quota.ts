import { ProjectType } from './enums';
import type { UsageLimits } from './contracts/user';

/**
 * The quota kinds behind the 24 fields of `get_user_limit_info`. Each kind names its
 * fields once; the server builds the answer from this map and the browser reads it with it.
 */
export const QUOTA_FIELDS = {
  comics: {
    gen: 'remainGenCount',
    reward: 'remainRewardsGenerateCount',
    merge: 'remainMergeCount',
  },
  comicsOverseas: {
    gen: 'remainOverseaGenCount',
    reward: 'remainRewardsOverseaGenerateCount',
    merge: 'remainOverseaMergeCount',
  },
  decompression: {
    gen: 'remainCutCount',
    reward: 'remainRewardsDecompressionCount',
    merge: 'remainCutMergeCount',
  },
  decompressionOverseas: {
    gen: 'remainOverseaCutCount',
    reward: 'remainRewardsOverseaDecompressionCount',
    merge: 'remainOverseaCutMergeCount',
  },
  scroll: { gen: 'remainScrollCount', reward: 'remainRewardsRollingCount', merge: null },
  convert: {
    gen: 'remainXiGaoCount',
    reward: 'remainRewardsXiGaoCount',
    merge: 'remainXiGaoMergeCount',
  },
  market: {
    gen: 'remainMarketCount',
    reward: 'remainRewardsMarketCount',
    merge: 'remainMarketMergeCount',
  },
  realOpera: {
    gen: 'remainRealPeopleVideoCount',
    reward: 'remainRewardsRealPeopleVideoCount',
    merge: 'remainRealPeopleVideoMergeCount',
  },
  searchVideo: { gen: 'remainSearchVideoCount', reward: null, merge: null },
} as const satisfies Record<
  string,
  { gen: keyof UsageLimits; reward: keyof UsageLimits | null; merge: keyof UsageLimits | null }
>;

export type QuotaType = keyof typeof QUOTA_FIELDS;
export const QUOTA_TYPES = Object.keys(QUOTA_FIELDS) as QuotaType[];

/** Chinese names of the quota kinds, for tables and messages. */
export const QUOTA_TYPE_LABELS: Record<QuotaType, string> = {
  comics: '漫剪视频',
  comicsOverseas: '海外漫剪视频',
  decompression: '解压视频',
  decompressionOverseas: '海外解压视频',
  scroll: '滚屏视频',
  convert: '反推视频',
  market: '营销视频',
  realOpera: '真人短剧',
  searchVideo: '搜索视频',
};

/**
 * Which quota a video type spends. The spec gives AI comic dramas (anime shorts) no quota
 * fields of their own; they are comic videos, so they spend the comics quota.
 */
export const QUOTA_TYPE_OF_PROJECT: Record<ProjectType, QuotaType> = {
  [ProjectType.comics]: 'comics',
  [ProjectType.decompression]: 'decompression',
  [ProjectType.scroll]: 'scroll',
  [ProjectType.convert]: 'convert',
  [ProjectType.market]: 'market',
  [ProjectType.comicsOverseas]: 'comicsOverseas',
  [ProjectType.decompressionOverseas]: 'decompressionOverseas',
  [ProjectType.realOpera]: 'realOpera',
  [ProjectType.animeShorts]: 'comics',
};

/**
 * The quota kinds some video type spends, in QUOTA_TYPES order. The spec's answer still
 * carries remainSearchVideoCount, but no page of the product spends it (no video type maps to
 * it), so screens that list counts show only these: a row nobody can use only confuses.
 */
export const SPENT_QUOTA_TYPES: QuotaType[] = QUOTA_TYPES.filter((type) =>
  Object.values(QUOTA_TYPE_OF_PROJECT).includes(type),
);
