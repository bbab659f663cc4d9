/**
 * Numeric enumerations of spec section 3, as `as const` objects with derived unions,
 * so the numbers on the wire are written once.
 */
type ValueOf<T> = T[keyof T];

/** Project or content type: the full set. */
export const ProjectType = {
  comics: 0,
  decompression: 1,
  scroll: 2,
  convert: 3,
  market: 4,
  comicsOverseas: 5,
  decompressionOverseas: 6,
  realOpera: 8,
  animeShorts: 11,
} as const;
export type ProjectType = ValueOf<typeof ProjectType>;
export const PROJECT_TYPES = Object.values(ProjectType) as ProjectType[];

/** The narrower project type set the spec names separately (note: convert is 2 here). */
export const NarrowProjectType = {
  comics: 0,
  decompression: 1,
  convert: 2,
  market: 4,
  realOpera: 8,
} as const;
export type NarrowProjectType = ValueOf<typeof NarrowProjectType>;

/** Types made for overseas audiences. */
export const OVERSEAS_PROJECT_TYPES = [
  ProjectType.comicsOverseas,
  ProjectType.decompressionOverseas,
  ProjectType.realOpera,
] as const satisfies readonly ProjectType[];

export function isOverseasProjectType(type: number): boolean {
  return (OVERSEAS_PROJECT_TYPES as readonly number[]).includes(type);
}

/** Draft or creation flag of a work. */
export const CreationFlag = { draft: 0, creation: 1 } as const;
export type CreationFlag = ValueOf<typeof CreationFlag>;

/** Where an asset or media file comes from. */
export const AssetSource = {
  cloud: 0,
  local: 1,
  localSuccess: 2,
  editingTool: 3,
  textToSpeech: 4,
} as const;
export type AssetSource = ValueOf<typeof AssetSource>;

export const NoticeStatus = { unread: 0, read: 1 } as const;
export type NoticeStatus = ValueOf<typeof NoticeStatus>;

/** User status: -1 is the default of a normal account, 0 means not registered yet. */
export const UserStatus = { normal: -1, unregistered: 0 } as const;

/**
 * Template ids 0..6 map, in order, to the work-menu items after "my roles"
 * (which is always shown and has no template id).
 */
export const TemplateId = {
  myCopy: 0,
  comics: 1,
  anime: 2,
  decompression: 3,
  scroll: 4,
  convert: 5,
  market: 6,
} as const;
export type TemplateId = ValueOf<typeof TemplateId>;
export const TEMPLATE_IDS = Object.values(TemplateId) as TemplateId[];

/** The `configType` query values of the video configuration calls (spec section 7). */
export const ConfigType = {
  assistant: 0,
  template: 1,
  imageStyle: 2,
  voice: 3,
  music: 4,
} as const;
export type ConfigType = ValueOf<typeof ConfigType>;
export type VideoConfigType =
  typeof ConfigType.imageStyle | typeof ConfigType.voice | typeof ConfigType.music;

/** Value of the `platform` request header. */
export const ClientPlatform = { mobile: 'm', pc: 'pc' } as const;
export type ClientPlatform = ValueOf<typeof ClientPlatform>;

/** Notice list query that means "every category". */
export const ALL_NOTICE_CATEGORIES = -1;
/** `noticeId` that marks every notice read. */
export const ALL_NOTICES = -1;
