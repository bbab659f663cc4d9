import {
  ProjectType,
  overseaVariant,
  sessionStore,
  type Role,
  type SessionValues,
  type VideoSettings,
} from '@kol/shared-sdk';
import { videoQuery } from '../../lib/video-address';

/**
 * The comic clip's flow state between its pages, kept in the spec's `KOL_` session values so a
 * reload on any step loses nothing. Domestic (type 0) and overseas (type 5) clips keep their own
 * variants of each value, so the two flows never overwrite each other. The work being made and
 * the type travel in the address (`?videoType=5&workId=12`).
 */

/** The comic clip's steps, in order. */
export const COMIC_STEPS = ['视频配置', '分镜字幕', '角色', '分镜画面', '生成'] as const;

export type ComicType = typeof ProjectType.comics | typeof ProjectType.comicsOverseas;

/** `?videoType=5` is the overseas clip; anything else is the domestic one. */
export function comicTypeOf(params: URLSearchParams): ComicType {
  return Number(params.get('videoType')) === ProjectType.comicsOverseas
    ? ProjectType.comicsOverseas
    : ProjectType.comics;
}

/** The query every page of the flow carries: the type, and the work once it exists. */
export const flowQuery: (type: ComicType, workId: number | null) => string = videoQuery;

/** The comic flow's settings: the contract's, kept in `KOL_VIDEO_CONFIG`. */
export type ComicSettings = VideoSettings;

/** The settings a new clip starts with: portrait, normal speed, classic captions. */
export const DEFAULT_SETTINGS: ComicSettings = {
  aspect: '9:16',
  speed: 1,
  captionStyle: 'classic',
};

type Variant<K extends keyof SessionValues> = SessionValues[K] | null;

/** The session values of one flow (domestic or overseas). */
export function comicFlowStore(overseas: boolean) {
  const get = <K extends keyof SessionValues & string>(name: K): Variant<K> =>
    sessionStore.get(overseaVariant(name, overseas) as K);
  const set = <K extends keyof SessionValues & string>(name: K, value: SessionValues[K]) =>
    sessionStore.set(overseaVariant(name, overseas) as K, value);
  return {
    text: () => get('videoContent') ?? '',
    setText: (text: string) => set('videoContent', text),
    settings: (): ComicSettings => ({ ...DEFAULT_SETTINGS, ...get('videoConfig') }),
    setSettings: (settings: ComicSettings) => set('videoConfig', settings),
    styleId: () => get('videoStyle'),
    setStyleId: (styleId: number) => set('videoStyle', styleId),
    roles: (): Role[] => get('roles') ?? [],
    setRoles: (roles: Role[]) => set('roles', roles),
    roleImages: (): Record<string, string[]> => get('roleImages') ?? {},
    setRoleImages: (images: Record<string, string[]>) => set('roleImages', images),
    characterTaskId: () => get('characterTaskId'),
    setCharacterTaskId: (taskId: string) => set('characterTaskId', taskId),
    /** The caption page's shots as SRT; one value for both flows (the spec gives it no twin). */
    srt: () => sessionStore.get('srtContent'),
    setSrt: (srt: string) => sessionStore.set('srtContent', srt),
    clearSrt: () => sessionStore.remove('srtContent'),
  };
}

export type ComicFlowStore = ReturnType<typeof comicFlowStore>;

/** The settings a work is saved with: the remembered settings and the remembered style. */
export function settingsToSave(store: ComicFlowStore): VideoSettings {
  const styleId = store.styleId();
  return {
    ...store.settings(),
    ...(styleId !== null ? { imageStyleId: styleId } : {}),
  };
}
