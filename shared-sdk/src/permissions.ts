import type { UsageLimits, UserInfo } from './contracts/user';
import { ProjectType, TemplateId } from './enums';
import { QUOTA_FIELDS, QUOTA_TYPE_OF_PROJECT, type QuotaType } from './quota';

/**
 * The one place the rules of who may see or do what live (spec sections 4 to 6). The host,
 * the remotes and the server all call these, so a rule cannot differ between them.
 */

export type WorkMenuKey = 'roles' | keyof typeof TemplateId;

/** The work-menu items in menu order, with the path each opens and the template id it needs. */
export const WORK_MENU_ITEMS: readonly {
  key: WorkMenuKey;
  label: string;
  path: string;
  templateId: TemplateId | null;
}[] = [
  { key: 'roles', label: '我的角色', path: '/work/character', templateId: null },
  { key: 'myCopy', label: '我的文案', path: '/work', templateId: TemplateId.myCopy },
  { key: 'comics', label: '漫剪视频', path: '/work/comics', templateId: TemplateId.comics },
  { key: 'anime', label: 'AI漫剧', path: '/work/anime', templateId: TemplateId.anime },
  {
    key: 'decompression',
    label: '解压视频',
    path: '/work/decompression',
    templateId: TemplateId.decompression,
  },
  { key: 'scroll', label: '滚屏视频', path: '/work/scroll', templateId: TemplateId.scroll },
  { key: 'convert', label: '反推视频', path: '/work/convert', templateId: TemplateId.convert },
  { key: 'market', label: '营销视频', path: '/work/market', templateId: TemplateId.market },
];

/** A work page or menu item is visible only when its template id is among the user's. */
export function hasTemplate(
  user: Pick<UserInfo, 'templateIds'> | null,
  templateId: number | null,
): boolean {
  if (templateId === null) return true;
  return user?.templateIds.includes(templateId) ?? false;
}

export function canSeeWorkMenuItem(
  user: Pick<UserInfo, 'templateIds'> | null,
  key: WorkMenuKey,
): boolean {
  const item = WORK_MENU_ITEMS.find((entry) => entry.key === key);
  return item ? hasTemplate(user, item.templateId) : false;
}

export function visibleWorkMenuItems(user: Pick<UserInfo, 'templateIds'> | null) {
  return WORK_MENU_ITEMS.filter((item) => hasTemplate(user, item.templateId));
}

/**
 * Functional level 0 blocks the reverse-video (convert) works page. The page also needs its
 * template id, like every work page (`hasTemplate`); the spec keeps the two rules apart.
 */
export function canOpenConvertWorks(user: Pick<UserInfo, 'functionalLevel'> | null): boolean {
  return (user?.functionalLevel ?? 0) > 0;
}

/**
 * The template id whose work-menu item lists a project type's works: overseas variants share
 * their type's item; the real-person drama has no item (null: no template needed).
 */
export const TEMPLATE_OF_PROJECT: Readonly<Record<ProjectType, TemplateId | null>> = {
  [ProjectType.comics]: TemplateId.comics,
  [ProjectType.comicsOverseas]: TemplateId.comics,
  [ProjectType.animeShorts]: TemplateId.anime,
  [ProjectType.decompression]: TemplateId.decompression,
  [ProjectType.decompressionOverseas]: TemplateId.decompression,
  [ProjectType.scroll]: TemplateId.scroll,
  [ProjectType.convert]: TemplateId.convert,
  [ProjectType.market]: TemplateId.market,
  [ProjectType.realOpera]: null,
};

/**
 * May the user make videos of this project type: its template id (as its works page needs),
 * and for reverse videos a functional level above 0 (as the convert works page needs).
 */
export function canUseProjectType(
  user: Pick<UserInfo, 'templateIds' | 'functionalLevel'> | null,
  type: number,
): boolean {
  if (!(type in TEMPLATE_OF_PROJECT)) return false;
  const projectType = type as ProjectType;
  if (projectType === ProjectType.convert && !canOpenConvertWorks(user)) return false;
  return hasTemplate(user, TEMPLATE_OF_PROJECT[projectType]);
}

function quotaTypeOf(type: ProjectType | QuotaType): QuotaType {
  return typeof type === 'number' ? QUOTA_TYPE_OF_PROJECT[type] : type;
}

/** Generations left for a video type: the regular count plus the reward count. */
export function remainingGenerations(
  limits: UsageLimits | null,
  type: ProjectType | QuotaType,
): number {
  if (!limits) return 0;
  const fields = QUOTA_FIELDS[quotaTypeOf(type)];
  return limits[fields.gen] + (fields.reward ? limits[fields.reward] : 0);
}

/** Merges left for a video type, or null for a type that has no merge step (scroll, search). */
export function remainingMerges(
  limits: UsageLimits | null,
  type: ProjectType | QuotaType,
): number | null {
  const field = QUOTA_FIELDS[quotaTypeOf(type)].merge;
  if (field === null) return null;
  return limits ? limits[field] : 0;
}

/** A composition configuration page may open only while its type has generations left. */
export function canStartComposition(limits: UsageLimits | null, type: ProjectType): boolean {
  return remainingGenerations(limits, type) > 0;
}

/** The work-menu template id that gates each video type's works. */
export const TEMPLATE_ID_OF_PROJECT: Partial<Record<ProjectType, TemplateId>> = {
  [ProjectType.comics]: TemplateId.comics,
  [ProjectType.comicsOverseas]: TemplateId.comics,
  [ProjectType.animeShorts]: TemplateId.anime,
  [ProjectType.decompression]: TemplateId.decompression,
  [ProjectType.decompressionOverseas]: TemplateId.decompression,
  [ProjectType.scroll]: TemplateId.scroll,
  [ProjectType.convert]: TemplateId.convert,
  [ProjectType.market]: TemplateId.market,
};
