import { STORAGE_PREFIX } from './constants';
import type { Role } from './contracts/role';
import type { VideoSettings } from './contracts/video';

/**
 * The values the browser remembers between pages (spec section 3), each under a `KOL_` key and
 * stored as JSON. Values that a domestic and an overseas flow keep apart have an `Oversea`
 * variant, so the two flows never overwrite each other.
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
  /** The real-person drama (type 8) being made: see OperaDraft. */
  operaDraft: OperaDraft;
  /** The reverse video (type 3) being made: see ConvertDraft. */
  convertDraft: ConvertDraft;
  /** The de-dup settings page: the clip previewed and the presets being edited (not yet saved). */
  dedupEdit: DedupEdit;
  /**
   * One reverse video's de-dup page (`/video/cutDuplicates/:id`): the presets being tried on it,
   * which reach the work only when it is rendered again.
   */
  dedupClip: DedupClip;
  /** The decompression video (types 1 and 6) being configured: see DecompressionDraft. */
  decompressionDraft: DecompressionDraft;
  decompressionDraftOversea: DecompressionDraft;
  /** The scrolling video (type 2) being made: see ScrollDraft. */
  scrollDraft: ScrollDraft;
  /**
   * The marketing video (type 4) being made: see MarketDraft. Its template is `templateId` and
   * the fields filled in are `templateContent` (the spec's values).
   */
  marketDraft: MarketDraft;
}

/**
 * The scrolling video's page state (`KOL_SCROLL_DRAFT`): the text and settings as typed, so a
 * reload loses nothing; its own value, since the comic clip saves whatever `KOL_VIDEO_CONFIG` holds.
 */
export interface ScrollDraft {
  /** The work it was saved as (null until the first render makes it). */
  workId: number | null;
  title: string;
  text: string;
  settings: Pick<
    VideoSettings,
    'aspect' | 'voiceId' | 'speed' | 'musicId' | 'backgroundMaterialId'
  >;
}

/** The marketing video's unsaved choices (`KOL_MARKET_DRAFT`), for the work in the address. */
export interface MarketDraft {
  workId: number | null;
  settings: Pick<
    VideoSettings,
    'aspect' | 'voiceId' | 'speed' | 'musicId' | 'callToAction' | 'imageUrls'
  >;
}

/**
 * The decompression page's input (`KOL_DECOMPRESSION_DRAFT`, overseas `…_OVERSEA`). Its own
 * value, not `KOL_VIDEO_CONTENT` / `KOL_VIDEO_CONFIG`: those are the comic clip's, and a
 * decompression text or background left there would turn up in the next comic clip.
 */
export interface DecompressionDraft {
  title: string;
  text: string;
  settings: Pick<
    VideoSettings,
    'aspect' | 'voiceId' | 'speed' | 'musicId' | 'captionStyle' | 'backgroundMaterialId'
  >;
  /**
   * The idempotency key of making this draft's work (with the text it is made from: see
   * idempotencyKeyFor), kept until the work is made: a 确认生成 again after a lost answer, even
   * after a reload, gets that work back instead of making a second one.
   */
  createKey?: string;
}

export interface DedupEdit {
  clip: { url: string; name: string; durationMs: number | null } | null;
  /** Null: the presets the user saved on the server. */
  presets: NonNullable<VideoSettings['dedup']> | null;
  aspect: VideoSettings['aspect'];
}

export interface DedupClip {
  workId: number;
  presets: NonNullable<VideoSettings['dedup']>;
}

/**
 * The reverse video's flow state (`KOL_CONVERT_DRAFT`): the uploaded source, the script as the
 * user edits it, and the settings, kept until the work is made at render time so a reload on
 * any step loses nothing.
 */
export interface ConvertDraft {
  workId: number | null;
  title: string;
  source: { url: string; name: string; durationMs: number | null } | null;
  /** The script read from the source (subtitle track or transcription), before any edit. */
  extracted: { script: string; from: 'subtitles' | 'transcription' | 'none'; note: string } | null;
  script: string;
  settings: Pick<VideoSettings, 'aspect' | 'voiceId' | 'speed' | 'dedup'>;
}

/**
 * The real-person drama's flow state between its pages (`KOL_OPERA_DRAFT`). Its own value, not
 * `KOL_VIDEO_CONFIG`: a script still being written has scenes without their clip or photo,
 * which VideoSettings' `scenes` refuses, and the comic clip saves whatever that value holds.
 */
export interface OperaDraft {
  /** The work the draft was saved as (null until the configuration page makes it). */
  workId: number | null;
  title: string;
  settings: Pick<VideoSettings, 'aspect' | 'musicId' | 'captionStyle' | 'speed' | 'roleVoices'>;
  scenes: OperaDraftScene[];
}

export interface OperaDraftScene {
  /** Stable across edits and reloads, so a list keeps each scene's inputs in place. */
  key: string;
  /** The uploaded clip or photo ('' until uploaded), its kind and the name it was uploaded as. */
  mediaUrl: string;
  mediaKind: 'image' | 'video' | '';
  mediaName: string;
  lines: Array<{ key: string; speaker: string; text: string }>;
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

export const sessionStore = typedStorage<SessionValues>(() =>
  typeof sessionStorage === 'undefined' ? null : sessionStorage,
);
export const localStore = typedStorage<LocalValues>(() =>
  typeof localStorage === 'undefined' ? null : localStorage,
);

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
  operaDraft: true,
  convertDraft: true,
  dedupEdit: true,
  dedupClip: true,
  decompressionDraft: true,
  decompressionDraftOversea: true,
  scrollDraft: true,
  marketDraft: true,
};

export const SESSION_VALUE_KEYS = Object.keys(SESSION_VALUE_NAMES) as (keyof SessionValues)[];
