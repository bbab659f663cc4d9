import { STORAGE_PREFIX } from './constants';
import type { Role } from './contracts/role';
import type { VideoSettings } from './contracts/video';

/**
 * A text handed to a video type's first step by 发送到视频 (the writing remote): the type chosen,
 * the text and its title. The step takes it once, for a new video, into its own draft.
 */
export interface VideoHandover {
  /** The project type whose first step takes it (`VIDEO_TYPES`' `takesText` types). */
  type: number;
  text: string;
  title: string;
}

/**
 * The values the browser remembers between pages (spec section 3), each under a `KOL_` key and
 * stored as JSON. Values that a domestic and an overseas flow keep apart have an `Oversea`
 * variant, so the two flows never overwrite each other. A value only one remote uses (a video
 * type's draft) lives in that remote, through `sessionValues`.
 */
export interface SessionValues {
  characterTaskId: string;
  characterTaskIdOversea: string;
  roles: Role[];
  rolesOversea: Role[];
  roleImages: Record<string, string[]>;
  roleImagesOversea: Record<string, string[]>;
  ttsContent: string;
  ttsContentOversea: string;
  videoContent: string;
  videoContentOversea: string;
  templateContent: Record<string, string>;
  templateContentOversea: Record<string, string>;
  videoStyle: number;
  videoStyleOversea: number;
  originalContent: string;
  originalContentOversea: string;
  templateId: number;
  srtContent: string;
  uploadTtsUrl: string;
  videoConfig: VideoSettings;
  videoConfigOversea: VideoSettings;
  chapterId: number;
  /** `KOL_VIDEO_HANDOVER`: 发送到视频's text and title, for the chosen type's first step. */
  videoHandover: VideoHandover;
}

/** Values kept across visits in local storage. */
export interface LocalValues {
  /** Unsent input of the writing pages, so a reload loses nothing. */
  writingDraft: { page: 'generate' | 'create'; text: string; savedAt: string };
  /** The platform last chosen on the one-click article page. */
  lastPlatformId: number;
  /**
   * `KOL_REMOTE_OVERRIDES`: remotes this browser loads from a developer's dev server instead of
   * the registry, by federation name: `{ "mfe_video": "http://localhost:3102/mf-manifest.json" }`.
   * Set by hand in the browser's console; the host honours it only when the server allows
   * overrides (PlatformConfig.remoteOverrides) and only for loopback URLs of known remotes.
   */
  remoteOverrides: Record<string, string>;
}

/** `characterTaskId` -> `KOL_CHARACTER_TASK_ID`, `rolesOversea` -> `KOL_ROLES_OVERSEA`. */
export function storageKey(name: string): string {
  return STORAGE_PREFIX + name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

export interface TypedStorage<Values> {
  get<K extends keyof Values & string>(name: K): Values[K] | null;
  set<K extends keyof Values & string>(name: K, value: Values[K]): void;
  remove<K extends keyof Values & string>(name: K): void;
}

function typedStorage<Values>(pick: () => Storage | null): TypedStorage<Values> {
  return {
    get(name) {
      const raw = pick()?.getItem(storageKey(name));
      if (raw == null) return null;
      try {
        return JSON.parse(raw) as Values[typeof name];
      } catch {
        // A value written by hand or by an older build is not ours to trust.
        return null;
      }
    },
    set(name, value) {
      pick()?.setItem(storageKey(name), JSON.stringify(value));
    },
    remove(name) {
      pick()?.removeItem(storageKey(name));
    },
  };
}

const session = () => (typeof sessionStorage === 'undefined' ? null : sessionStorage);

export const sessionStore = typedStorage<SessionValues>(session);
export const localStore = typedStorage<LocalValues>(() =>
  typeof localStorage === 'undefined' ? null : localStorage,
);

/**
 * A typed store of a remote's own session values (its drafts), kept as the SDK's are: JSON
 * under `KOL_` keys (`storageKey`). A value only one remote uses lives in that remote, so
 * changing its shape changes nothing the host and the other remotes load.
 */
export function sessionValues<Values>(): TypedStorage<Values> {
  return typedStorage<Values>(session);
}

/** The overseas twin of a session value, for flows that serve both audiences. */
export function overseaVariant<K extends keyof SessionValues & string>(
  name: K,
  oversea: boolean,
): keyof SessionValues & string {
  const twin = `${name}Oversea`;
  return oversea && twin in SESSION_VALUE_NAMES ? (twin as keyof SessionValues & string) : name;
}

const SESSION_VALUE_NAMES: Record<keyof SessionValues, true> = {
  characterTaskId: true,
  characterTaskIdOversea: true,
  roles: true,
  rolesOversea: true,
  roleImages: true,
  roleImagesOversea: true,
  ttsContent: true,
  ttsContentOversea: true,
  videoContent: true,
  videoContentOversea: true,
  templateContent: true,
  templateContentOversea: true,
  videoStyle: true,
  videoStyleOversea: true,
  originalContent: true,
  originalContentOversea: true,
  templateId: true,
  srtContent: true,
  uploadTtsUrl: true,
  videoConfig: true,
  videoConfigOversea: true,
  chapterId: true,
  videoHandover: true,
};

export const SESSION_VALUE_KEYS = Object.keys(SESSION_VALUE_NAMES) as (keyof SessionValues)[];
