import { describe, expect, it } from '@jest/globals';
import type { UsageLimits } from '../contracts/user';
import { ProjectType, TemplateId } from '../enums';
import {
  WORK_MENU_ITEMS,
  canOpenConvertWorks,
  canSeeWorkMenuItem,
  canStartComposition,
  canUseProjectType,
  hasTemplate,
  remainingGenerations,
  remainingMerges,
  visibleWorkMenuItems,
} from '../permissions';
import { QUOTA_FIELDS } from '../quota';

const zeroLimits = Object.fromEntries(
  Object.values(QUOTA_FIELDS)
    .flatMap((fields) =>
      Object.values(fields).filter((field): field is keyof UsageLimits => field !== null),
    )
    .map((field) => [field, 0]),
) as UsageLimits;

describe('permissions', () => {
  it('knows the 24 limit fields exactly', () => {
    expect(Object.keys(zeroLimits).sort()).toEqual(
      [
        'remainGenCount',
        'remainRewardsGenerateCount',
        'remainMergeCount',
        'remainOverseaGenCount',
        'remainRewardsOverseaGenerateCount',
        'remainOverseaMergeCount',
        'remainCutCount',
        'remainRewardsDecompressionCount',
        'remainCutMergeCount',
        'remainOverseaCutCount',
        'remainRewardsOverseaDecompressionCount',
        'remainOverseaCutMergeCount',
        'remainScrollCount',
        'remainRewardsRollingCount',
        'remainXiGaoCount',
        'remainRewardsXiGaoCount',
        'remainXiGaoMergeCount',
        'remainMarketCount',
        'remainRewardsMarketCount',
        'remainMarketMergeCount',
        'remainSearchVideoCount',
        'remainRealPeopleVideoCount',
        'remainRewardsRealPeopleVideoCount',
        'remainRealPeopleVideoMergeCount',
      ].sort(),
    );
  });

  it('always shows my roles and gates every other work item by its template id', () => {
    expect(WORK_MENU_ITEMS.map((item) => item.templateId)).toEqual([null, 0, 1, 2, 3, 4, 5, 6]);
    const user = { templateIds: [0, 4] };
    expect(visibleWorkMenuItems(user).map((item) => item.key)).toEqual([
      'roles',
      'myCopy',
      'scroll',
    ]);
    expect(canSeeWorkMenuItem(user, 'roles')).toBe(true);
    expect(canSeeWorkMenuItem(user, 'convert')).toBe(false);
    expect(visibleWorkMenuItems(null).map((item) => item.key)).toEqual(['roles']);
    expect(hasTemplate({ templateIds: [6] }, 6)).toBe(true);
  });

  it('blocks the convert works page at functional level 0', () => {
    expect(canOpenConvertWorks({ functionalLevel: 0 })).toBe(false);
    expect(canOpenConvertWorks({ functionalLevel: 1 })).toBe(true);
    expect(canOpenConvertWorks(null)).toBe(false);
  });

  it('counts remaining generations as the regular plus the reward count', () => {
    const limits = {
      ...zeroLimits,
      remainCutCount: 2,
      remainRewardsDecompressionCount: 3,
      remainCutMergeCount: 4,
    };
    expect(remainingGenerations(limits, ProjectType.decompression)).toBe(5);
    expect(remainingGenerations(limits, 'decompression')).toBe(5);
    expect(remainingMerges(limits, ProjectType.decompression)).toBe(4);
    expect(remainingGenerations(limits, ProjectType.decompressionOverseas)).toBe(0);
    expect(remainingMerges(limits, ProjectType.scroll)).toBeNull();
    expect(remainingGenerations({ ...zeroLimits, remainSearchVideoCount: 7 }, 'searchVideo')).toBe(
      7,
    );
    expect(remainingGenerations(null, ProjectType.comics)).toBe(0);
  });

  it('lets a composition page open only while its type has generations left', () => {
    expect(canStartComposition(zeroLimits, ProjectType.market)).toBe(false);
    expect(
      canStartComposition({ ...zeroLimits, remainRewardsMarketCount: 1 }, ProjectType.market),
    ).toBe(true);
    // AI comic dramas spend the comics quota.
    expect(canStartComposition({ ...zeroLimits, remainGenCount: 1 }, ProjectType.animeShorts)).toBe(
      true,
    );
  });
});

describe('canUseProjectType', () => {
  const user = (templateIds: number[], functionalLevel = 1) => ({ templateIds, functionalLevel });

  it('needs the template id of the type’s works item; overseas types share theirs', () => {
    expect(canUseProjectType(user([TemplateId.comics]), ProjectType.comics)).toBe(true);
    expect(canUseProjectType(user([TemplateId.comics]), ProjectType.comicsOverseas)).toBe(true);
    expect(canUseProjectType(user([TemplateId.comics]), ProjectType.animeShorts)).toBe(false);
    expect(
      canUseProjectType(user([TemplateId.decompression]), ProjectType.decompressionOverseas),
    ).toBe(true);
    expect(canUseProjectType(user([]), ProjectType.scroll)).toBe(false);
    expect(canUseProjectType(null, ProjectType.market)).toBe(false);
  });

  it('lets anyone make a real-person drama (no works item), and nobody an unknown type', () => {
    expect(canUseProjectType(user([]), ProjectType.realOpera)).toBe(true);
    expect(canUseProjectType(user([0, 1, 2, 3, 4, 5, 6]), 7)).toBe(false);
  });

  it('also needs a functional level above 0 for reverse videos', () => {
    expect(canUseProjectType(user([TemplateId.convert], 1), ProjectType.convert)).toBe(true);
    expect(canUseProjectType(user([TemplateId.convert], 0), ProjectType.convert)).toBe(false);
  });
});
