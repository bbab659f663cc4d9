import type { PlatformConfig } from '@kol/shared-sdk/contracts';
import type { EmbeddedDatabase } from './db/embedded';
import type { S3StoreConfig } from './storage/s3-store';

/**
 * Everything the app needs to know from outside, as plain data: env.ts builds it from the
 * environment for `pnpm start`, tests build it directly.
 */
export interface AppConfig {
  /**
   * A PostgreSQL URL; or the embedded PGlite in `embeddedDataDir` (null: in memory), opened
   * and closed by the app; or an embedded database the caller opened and closes (the tests
   * share one per test file between the apps of that file).
   */
  database: { url: string } | { embeddedDataDir: string | null } | { embedded: EmbeddedDatabase };
  /** Schema to use instead of `public`; tests give each file its own. */
  databaseSchema?: string;
  /** Hostnames (optionally with :port) that sign on through CAS. */
  ssoHosts: string[];
  /** CAS server base URL, e.g. https://sso.example.com/cas; null when there is none. */
  ssoServerUrl: string | null;
  ssoTimeoutMs: number;
  /** Bearer token of the admin API; null disables it. */
  adminToken: string | null;
  /** Believe X-Forwarded-For / -Proto (set when behind a reverse proxy). */
  trustProxy: boolean;
  /** Create the demo account, notices and quotas on an empty database. */
  seedDemo: boolean;
  sessionTtlMs: number;
  /** How long a process may answer a session from memory (see repositories/session-cache.ts); 0 turns it off. */
  sessionCacheMs: number;
  loginLimit: LoginLimitConfig;
  bodyLimitBytes: number;
  /**
   * The release store: `<releasesDir>/<remote>/<version>/`, served at `/remotes/` (and the
   * host's at `/`); with `mediaStore` only a cache, the releases being in the bucket.
   */
  releasesDir: string;
  /** Uploaded images, served at `/uploads/`. */
  uploadsDir: string;
  /**
   * Generated media: `<mediaDir>/<userId>/<taskId>/` (videos, SRT, covers, frames),
   * `<mediaDir>/<userId>/tts/` (voice tries); served at `/media/` to their owner only.
   * `<mediaDir>/library/` holds the generated built-in music (never served: not a user id).
   */
  mediaDir: string;
  /**
   * Uploads, generated media and releases in one S3-compatible bucket (MEDIA_STORE=s3, see
   * src/storage) instead of the three folders above, so several API and worker processes on
   * several machines see the same files; the folders then only cache what a process works on.
   * Absent or null: the folders.
   */
  mediaStore?: S3StoreConfig | null;
  /**
   * With an object store, where this process keeps the copies of stored keys it reads
   * (`store.cached`: uploads, other tasks' files), one folder per area, swept of copies unused
   * for a while (src/storage/cache-sweep.ts). Apart from the working folders above, so the sweep
   * never touches a file a task is writing. Absent: `copies/` beside mediaDir.
   */
  storeCacheDir?: string;
  /**
   * The host shell's build (index.html and its assets), served at the site root before the
   * host's first release; released from here at start with `autoPublishFrom`.
   */
  hostDistDir: string;
  /** Workspace root whose `mfe-*\/dist` builds are released at start; null: none are. */
  autoPublishFrom: string | null;
  /**
   * Generate the built-in music and background loops in the background after the start (they
   * are also made on first use). Off in tests, which would spend their cores on it.
   */
  warmUpLibraries?: boolean;
  /**
   * When the server rolls a canary or a fresh release back on its own (src/releases/canary.ts);
   * absent: DEFAULTS.remoteAutoRollback.
   */
  remoteAutoRollback?: RemoteAutoRollbackConfig;
  /** Contact details of the header's contact-us modal. */
  contact: PlatformConfig['contact'];
  /**
   * Let a browser load a remote from a developer's dev server on its own machine (the host's
   * `KOL_REMOTE_OVERRIDES`): told to the host in the platform config, and the host page's
   * Content-Security-Policy then admits loopback scripts and sockets. Absent: off.
   */
  remoteOverrides?: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** OpenAI-compatible text provider (LLM_*); absent or null: the offline local engine. */
  llm?: LlmConfig | null;
  /**
   * A queued/running writing task whose row nobody touched for this long belongs to a process
   * that died (the running process touches it every few seconds). Default 15 s; the embedded
   * database has one process, so there every unfinished task found at start is dead (0).
   */
  writingTaskStaleMs?: number;
  /** Video tasks (src/tasks); absent: jobs are enqueued but not worked in this process. */
  videoTasks?: VideoTasksConfig;
  /** Series (src/series). */
  series?: {
    /**
     * Episodes of one user's series queued or running at once (SERIES_EPISODES_PER_USER,
     * default 1): a season never takes every worker from the other creators.
     */
    episodesPerUser: number;
    /** How often to look for episodes to start (default 2 s; a task ending here starts one at once). */
    pollMs?: number;
  };
  /** Metrics listener and shutdown (src/ops); absent: no separate listener, a stop at once. */
  ops?: OpsConfig;
  /** Image provider (IMAGE_* or COMFYUI_*); absent or null: the local frame renderer draws. */
  images?: ImageProviderConfig | null;
  /**
   * Image-to-video provider (VIDEO_* or COMFYUI_VIDEO_*) that brings each shot's picture to
   * motion; absent or null: the stills are composed with pan and zoom, as always.
   */
  videos?: VideoProviderConfig | null;
  /**
   * Calls at once per outside service across every process, and retries of a busy image
   * service (IMAGE_CONCURRENCY, IMAGE_RETRIES, VIDEO_CONCURRENCY; src/providers/limits.ts);
   * absent: DEFAULT_PROVIDER_LIMITS.
   */
  providerLimits?: ProviderLimits;
  /** OpenAI-compatible speech provider (TTS_*); absent or null: offline espeak-ng only. */
  tts?: TtsConfig | null;
  /**
   * OpenAI-compatible transcription (TRANSCRIBE_*) for reverse videos without a subtitle track;
   * absent or null: the subtitle track or the user's own script.
   */
  transcribe?: TranscribeConfig | null;
}

/**
 * Login attempts per (username, IP) and per IP (routes/api/user, repositories/login-attempts.ts).
 * Past its free attempts a key is slowed down, not locked: after each further attempt it has to
 * wait, the base delay doubled each time up to `maxDelayMs`. No per-username limit across IPs,
 * so nobody can lock a user out by failing from somewhere else.
 */
export interface LoginLimitConfig {
  /** Attempts one IP gets for one username before the delays start. */
  freePerUsernameIp: number;
  /** Attempts one IP gets for all usernames together before the delays start. */
  freePerIp: number;
  /** The first delay; it doubles with each further attempt let through. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key without any attempt for this long (and not waiting) starts again from zero. */
  resetMs: number;
}

/**
 * A canary, or a release activated within `windowMs`, is rolled back when at least `minUsers`
 * distinct signed-in users the server served it report it failing to load within `windowMs`,
 * and they are at least `sharePercent` % of the distinct users served it in that time.
 * 0 users: never; 0 %: the users alone decide.
 */
export interface RemoteAutoRollbackConfig {
  minUsers: number;
  windowMs: number;
  sharePercent: number;
}

/** Where shot and role pictures come from when a provider is configured (src/providers/images). */
export type ImageProviderConfig =
  | {
      kind: 'openai';
      /** An OpenAI-compatible API root, e.g. https://api.openai.com/v1 */
      baseUrl: string;
      apiKey: string;
      model: string;
      /** `WxH` asked for portrait pictures (landscape swaps it): sizes the service accepts. */
      portraitSize: string;
      timeoutMs: number;
    }
  | {
      kind: 'comfyui';
      /** A ComfyUI server, e.g. http://127.0.0.1:8188 */
      url: string;
      /** An API-format workflow with %prompt% placeholders; null: the one shipped. */
      workflowPath: string | null;
      /** Checkpoint the shipped workflow loads. */
      checkpoint: string;
      timeoutMs: number;
    };

/**
 * How hard an outside service may be asked, by every process of the installation together
 * (src/video/provider-limits.ts): calls at once (the service's concurrency or rate limit), and
 * for the image services how often a call refused with 429 or 5xx is tried again (after the
 * service's `retry-after`, else a backoff doubling from `backoffMs`). The video provider
 * retries within the `openai` package, so only its concurrency is limited.
 */
export interface ProviderLimits {
  images: { concurrency: number; retries: number };
  videos: { concurrency: number };
  /** The first wait before a retry (doubled each time, at most 30 s; default 1 s). */
  backoffMs?: number;
  /** How often a call waiting for a slot asks again (default 250 ms). */
  waitMs?: number;
}

/** Where the shots' clips come from when a provider is configured (src/providers/videos). */
export type VideoProviderConfig =
  | {
      kind: 'openai';
      /** An OpenAI-compatible API root with the videos endpoints, e.g. https://api.openai.com/v1 */
      baseUrl: string;
      apiKey: string;
      model: string;
      /** `WxH` asked for portrait clips (landscape swaps it): a size the service accepts. */
      portraitSize: string;
      /** The clip lengths the service accepts, in seconds, ascending. */
      seconds: number[];
      /** One clip (queue, generation, download) may take this long. */
      timeoutMs: number;
      /** How often the job's status is asked. */
      pollMs: number;
    }
  | {
      kind: 'comfyui';
      /** A ComfyUI server, e.g. http://127.0.0.1:8188 (may be the image provider's). */
      url: string;
      /** An API-format image-to-video workflow with placeholders; null: the one shipped. */
      workflowPath: string | null;
      /** Frames per second the workflow's model makes, and the longest clip it is asked for. */
      fps: number;
      maxSeconds: number;
      timeoutMs: number;
      pollMs: number;
    };

/**
 * How ops watch a process (src/ops): /metrics on the API port needs the admin token; a
 * separate listener (METRICS_PORT, on METRICS_HOST) answers /metrics, /readyz and /healthz to
 * whoever reaches that address, which is how worker processes are scraped.
 */
export interface OpsConfig {
  /** The separate listener; null: none (the API's own /metrics, /readyz and /healthz only). */
  listen: { host: string; port: number } | null;
  /** SIGTERM: how long in-flight requests and running stages get before the process exits. */
  shutdownGraceMs: number;
}

export interface VideoTasksConfig {
  /** Work jobs in this process (the default of `pnpm start`); off when worker processes do. */
  workInProcess: boolean;
  /** Jobs at once per process; capped by os.availableParallelism(). */
  concurrency?: number;
  /** Parent of the per-task working directories. */
  workDir: string;
  /** A runner silent this long is dead and its tasks are taken over (default 30 s). */
  leaseMs?: number;
  /**
   * At a stop (SIGTERM), how long a running stage may go on to finish before it is aborted
   * and its task given back (SHUTDOWN_GRACE_SECONDS; absent: at once, as tests stop).
   */
  stopGraceMs?: number;
  /** How often an idle worker asks for jobs (pg-boss, at least 0.5; default 2). */
  pollingIntervalSeconds?: number;
  /** Output size of composed videos instead of 1080x1920 / 1920x1080: tests render small. */
  renderSize?: { width: number; height: number };
  /**
   * Percent of the full output size (VIDEO_RENDER_PERCENT, 25–100; default 100): a smaller
   * video for a machine that renders for checks only (the end-to-end tests render at 25).
   */
  renderPercent?: number;
}

export interface LlmConfig {
  /** e.g. https://api.deepseek.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  /** Empty for servers without keys (Ollama, vLLM). */
  apiKey: string;
  model: string;
  /** No first token (or no next token) for this long counts as a timeout. */
  timeoutMs: number;
  /** Further attempts after a connection error, 429 or 5xx (before the first token). */
  maxRetries: number;
}

export interface TranscribeConfig {
  /** `POST {baseUrl}/audio/transcriptions`, e.g. https://api.openai.com/v1 */
  baseUrl: string;
  /** Empty for servers without keys (a local whisper server). */
  apiKey: string;
  model: string;
  /** One whole transcription may take this long. */
  timeoutMs: number;
}

export interface TtsConfig {
  /** `POST {baseUrl}/audio/speech`, e.g. https://api.openai.com/v1 */
  baseUrl: string;
  /** Empty for servers without keys. */
  apiKey: string;
  model: string;
  /** The provider's voice names offered in tts_list (TTS_VOICES, comma separated). */
  voices: string[];
  /** One sentence's synthesis may take this long. */
  timeoutMs: number;
}

export const DEFAULTS = {
  // OpenAI's lower tiers allow a handful of image requests at once; ComfyUI runs one at a time
  // per GPU and queues the rest, so a few in flight keep it busy without piling up. Video
  // generation allows a few jobs at once on most accounts; each takes minutes.
  providerLimits: {
    images: { concurrency: 4, retries: 2 },
    videos: { concurrency: 2 },
  } satisfies ProviderLimits as ProviderLimits,
  ssoTimeoutMs: 10_000,
  sessionTtlMs: 14 * 24 * 3600_000,
  sessionCacheMs: 3_000,
  loginLimit: {
    freePerUsernameIp: 5,
    freePerIp: 50,
    baseDelayMs: 1_000,
    maxDelayMs: 5 * 60_000,
    resetMs: 15 * 60_000,
  },
  bodyLimitBytes: 1024 * 1024,
  remoteAutoRollback: { minUsers: 3, windowMs: 10 * 60_000, sharePercent: 20 },
  // No made-up address: the header offers 联系我们 only once CONTACT_LINES gives the lines.
  contact: { title: '联系我们', lines: [] as readonly { label: string; value: string }[] },
} as const;

export const DEMO_ACCOUNT = { username: 'demo', password: 'demo123456' } as const;
