import os from 'node:os';
import path from 'node:path';
import { DEFAULTS, type AppConfig } from './config';
import { findRepoRoot, HOST_DIST_DIR } from './paths';

/**
 * The one place that reads environment variables. Each is checked here, so a typo stops the
 * start with a clear message instead of surfacing later.
 */
export interface ServerEnv {
  port: number;
  host: string;
  dataDir: string;
  /** From KOL_ADMIN_TOKEN; when absent the server uses (and creates) DATA_DIR/admin-token. */
  adminTokenFromEnv: string | null;
  app: AppConfig;
}

class EnvError extends Error {}

function int(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new EnvError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function bool(name: string, fallback: boolean): boolean {
  const raw = process.env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new EnvError(`${name} must be true or false, got "${raw}"`);
}

function url(name: string): string | null {
  const raw = process.env[name];
  if (!raw) return null;
  try {
    const parsed = new URL(raw);
    if (!/^(https?|postgres(ql)?):$/.test(parsed.protocol)) throw new Error('protocol');
  } catch {
    throw new EnvError(`${name} is not a valid URL: "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** `label:value;label:value` (full-width `：` and `；` work too); the value may hold colons. */
function contactLines(name: string): AppConfig['contact']['lines'] | null {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return null;
  return raw
    .split(/[;；]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^([^:：]+)[:：](.*)$/.exec(part);
      const label = match?.[1]?.trim() ?? '';
      const value = match?.[2]?.trim() ?? '';
      if (!label || !value) {
        throw new EnvError(`${name} must be "label:value;label:value", got "${part}"`);
      }
      return { label, value };
    });
}

/** LLM_BASE_URL turns the OpenAI-compatible text provider on; LLM_MODEL must come with it. */
function llmConfig(): AppConfig['llm'] {
  const baseUrl = url('LLM_BASE_URL');
  const model = process.env.LLM_MODEL?.trim() ?? '';
  if (!baseUrl) {
    if (model) throw new EnvError('LLM_MODEL is set but LLM_BASE_URL is not');
    return null;
  }
  if (!model) throw new EnvError('LLM_BASE_URL is set: LLM_MODEL must name the model too');
  return {
    baseUrl,
    apiKey: process.env.LLM_API_KEY?.trim() ?? '',
    model,
    timeoutMs: int('LLM_TIMEOUT_MS', 60_000, 1_000, 600_000),
    maxRetries: int('LLM_MAX_RETRIES', 2, 0, 5),
  };
}

/** TTS_BASE_URL turns the OpenAI-compatible speech provider on; the rest have defaults. */
function ttsConfig(): AppConfig['tts'] {
  const baseUrl = url('TTS_BASE_URL');
  if (!baseUrl) return null;
  const voices = (process.env.TTS_VOICES ?? '')
    .split(',')
    .map((voice) => voice.trim())
    .filter(Boolean);
  if (voices.some((voice) => !/^[\w.-]{1,40}$/.test(voice))) {
    throw new EnvError(
      `TTS_VOICES must be voice names separated by commas, got "${process.env.TTS_VOICES}"`,
    );
  }
  return {
    baseUrl,
    apiKey: process.env.TTS_API_KEY?.trim() ?? '',
    model: process.env.TTS_MODEL?.trim() || 'tts-1',
    // OpenAI's own voices when the installation does not list its provider's.
    voices: voices.length > 0 ? voices : ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'],
    timeoutMs: int('TTS_TIMEOUT_MS', 60_000, 1_000, 600_000),
  };
}

/**
 * IMAGE_BASE_URL (an OpenAI-compatible images API) or COMFYUI_URL turns an image provider on;
 * neither: the local frame renderer. Both at once would leave the choice to chance: refused.
 */
function imagesConfig(): AppConfig['images'] {
  const baseUrl = url('IMAGE_BASE_URL');
  const comfyUrl = url('COMFYUI_URL');
  const timeoutMs = int('IMAGE_TIMEOUT_MS', 120_000, 1_000, 900_000);
  if (baseUrl && comfyUrl) throw new EnvError('set IMAGE_BASE_URL or COMFYUI_URL, not both');
  if (comfyUrl) {
    const workflow = process.env.COMFYUI_WORKFLOW?.trim();
    return {
      kind: 'comfyui',
      url: comfyUrl,
      workflowPath: workflow ? path.resolve(workflow) : null,
      checkpoint: process.env.COMFYUI_CHECKPOINT?.trim() || 'v1-5-pruned-emaonly.safetensors',
      timeoutMs,
    };
  }
  const model = process.env.IMAGE_MODEL?.trim() ?? '';
  if (!baseUrl) {
    if (model) throw new EnvError('IMAGE_MODEL is set but IMAGE_BASE_URL is not');
    return null;
  }
  if (!model) throw new EnvError('IMAGE_BASE_URL is set: IMAGE_MODEL must name the model too');
  const size = process.env.IMAGE_SIZE?.trim() || '1024x1792';
  if (!/^\d{2,5}x\d{2,5}$/.test(size)) {
    throw new EnvError(`IMAGE_SIZE must be WIDTHxHEIGHT, got "${size}"`);
  }
  return {
    kind: 'openai',
    baseUrl,
    apiKey: process.env.IMAGE_API_KEY?.trim() ?? '',
    model,
    portraitSize: size,
    timeoutMs,
  };
}

/**
 * VIDEO_BASE_URL (an OpenAI-compatible videos API) or COMFYUI_VIDEO_URL (a ComfyUI server with
 * an image-to-video workflow) turns motion on; neither: stills with pan and zoom. Both at once
 * would leave the choice to chance: refused.
 */
function videosConfig(): AppConfig['videos'] {
  const baseUrl = url('VIDEO_BASE_URL');
  const comfyUrl = url('COMFYUI_VIDEO_URL');
  const timeoutMs = int('VIDEO_TIMEOUT_MS', 600_000, 1_000, 3_600_000);
  const pollMs = int('VIDEO_POLL_MS', 5_000, 20, 60_000);
  if (baseUrl && comfyUrl) throw new EnvError('set VIDEO_BASE_URL or COMFYUI_VIDEO_URL, not both');
  if (comfyUrl) {
    const workflow = process.env.COMFYUI_VIDEO_WORKFLOW?.trim();
    return {
      kind: 'comfyui',
      url: comfyUrl,
      workflowPath: workflow ? path.resolve(workflow) : null,
      fps: int('COMFYUI_VIDEO_FPS', 24, 1, 120),
      maxSeconds: int('COMFYUI_VIDEO_MAX_SECONDS', 5, 1, 60),
      timeoutMs,
      pollMs,
    };
  }
  if (!baseUrl) return null;
  const size = process.env.VIDEO_SIZE?.trim() || '720x1280';
  if (!/^\d{2,5}x\d{2,5}$/.test(size)) {
    throw new EnvError(`VIDEO_SIZE must be WIDTHxHEIGHT, got "${size}"`);
  }
  const secondsText = process.env.VIDEO_SECONDS?.trim() || '4,8,12';
  const seconds = secondsText.split(',').map((part) => Number(part.trim()));
  if (seconds.some((value) => !Number.isInteger(value) || value < 1 || value > 120)) {
    throw new EnvError(`VIDEO_SECONDS must list whole seconds like 4,8,12, got "${secondsText}"`);
  }
  return {
    kind: 'openai',
    baseUrl,
    apiKey: process.env.VIDEO_API_KEY?.trim() ?? '',
    model: process.env.VIDEO_MODEL?.trim() || 'sora-2',
    portraitSize: size,
    seconds: [...new Set(seconds)].sort((a, b) => a - b),
    timeoutMs,
    pollMs,
  };
}

/** TRANSCRIBE_BASE_URL turns the OpenAI-compatible transcription provider on. */
function transcribeConfig(): AppConfig['transcribe'] {
  const baseUrl = url('TRANSCRIBE_BASE_URL');
  if (!baseUrl) return null;
  return {
    baseUrl,
    apiKey: process.env.TRANSCRIBE_API_KEY?.trim() ?? '',
    model: process.env.TRANSCRIBE_MODEL?.trim() || 'whisper-1',
    timeoutMs: int('TRANSCRIBE_TIMEOUT_MS', 300_000, 1_000, 1_800_000),
  };
}

/**
 * MEDIA_STORE=s3 puts uploads, generated media and releases in one bucket of an S3-compatible
 * service (S3_BUCKET, and S3_ENDPOINT for anything but AWS); `local` (the default) keeps them
 * in DATA_DIR's folders.
 */
function mediaStoreConfig(): AppConfig['mediaStore'] {
  const kind = process.env.MEDIA_STORE?.trim().toLowerCase() || 'local';
  if (kind === 'local') {
    const stray = ['S3_BUCKET', 'S3_ENDPOINT'].filter((name) => process.env[name]);
    if (stray.length > 0) throw new EnvError(`${stray.join(', ')} set but MEDIA_STORE is not s3`);
    return null;
  }
  if (kind !== 's3') throw new EnvError(`MEDIA_STORE must be local or s3, got "${kind}"`);
  const bucket = process.env.S3_BUCKET?.trim() ?? '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new EnvError(`MEDIA_STORE=s3 needs S3_BUCKET, a valid bucket name, got "${bucket}"`);
  }
  const accessKeyId = process.env.S3_ACCESS_KEY_ID?.trim() ?? '';
  const secretAccessKey = process.env.S3_SECRET_ACCESS_KEY?.trim() ?? '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new EnvError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  const prefix = (process.env.S3_PREFIX?.trim() ?? '').replace(/^\/+|\/+$/g, '');
  return {
    bucket,
    endpoint: url('S3_ENDPOINT'),
    region: process.env.S3_REGION?.trim() || 'us-east-1',
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: bool('S3_FORCE_PATH_STYLE', false),
    prefix: prefix ? `${prefix}/` : '',
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function readEnv(): ServerEnv {
  const repoRoot = findRepoRoot();
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(repoRoot, '.data'));
  const databaseUrl = url('DATABASE_URL');
  const logLevel = process.env.LOG_LEVEL || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new EnvError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const mediaStore = mediaStoreConfig();
  const metricsPort = process.env.METRICS_PORT ? int('METRICS_PORT', 0, 0, 65535) : null;
  // Kubernetes gives a pod 30 s between SIGTERM and SIGKILL by default: within it.
  const shutdownGraceMs = int('SHUTDOWN_GRACE_SECONDS', 25, 0, 3600) * 1000;
  // With an object store the folders only cache what this process works on: kept apart from
  // the folders of the local store, so nothing there is mistaken for the stored files.
  const fileRoot = mediaStore ? path.join(dataDir, 'cache') : dataDir;
  return {
    port: int('PORT', 8080, 0, 65535),
    // Loopback by default: the embedded setup is one person's machine. Set HOST=0.0.0.0 to serve a network.
    host: process.env.HOST || '127.0.0.1',
    dataDir,
    adminTokenFromEnv: process.env.KOL_ADMIN_TOKEN || null,
    app: {
      database: databaseUrl
        ? { url: databaseUrl }
        : { embeddedDataDir: path.join(dataDir, 'pglite') },
      ssoHosts: (process.env.SSO_HOSTS ?? '')
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
      ssoServerUrl: url('SSO_SERVER_URL'),
      ssoTimeoutMs: int('SSO_TIMEOUT_MS', DEFAULTS.ssoTimeoutMs, 100, 120_000),
      adminToken: null,
      trustProxy: bool('TRUST_PROXY', false),
      // A shared PostgreSQL is somebody's real data: no demo account there unless asked for.
      seedDemo: bool('SEED_DEMO', !databaseUrl),
      sessionTtlMs: DEFAULTS.sessionTtlMs,
      sessionCacheMs: int('SESSION_CACHE_MS', DEFAULTS.sessionCacheMs, 0, 60_000),
      loginLimit: { ...DEFAULTS.loginLimit },
      bodyLimitBytes: DEFAULTS.bodyLimitBytes,
      mediaStore,
      ...(mediaStore ? { storeCacheDir: path.join(fileRoot, 'copies') } : {}),
      releasesDir: path.join(fileRoot, 'releases'),
      uploadsDir: path.join(fileRoot, 'uploads'),
      mediaDir: path.join(fileRoot, 'media'),
      hostDistDir: path.resolve(process.env.HOST_DIST_DIR || HOST_DIST_DIR(repoRoot)),
      // Like the demo data: on for the embedded one-machine setup, where `pnpm start` builds
      // the remotes just before; against a shared PostgreSQL, releases are an ops decision.
      autoPublishFrom: bool('AUTO_PUBLISH_REMOTES', !databaseUrl) ? repoRoot : null,
      remoteAutoRollback: {
        minUsers: int(
          'REMOTE_AUTO_ROLLBACK_USERS',
          DEFAULTS.remoteAutoRollback.minUsers,
          0,
          100_000,
        ),
        windowMs: int(
          'REMOTE_AUTO_ROLLBACK_WINDOW_MS',
          DEFAULTS.remoteAutoRollback.windowMs,
          10_000,
          24 * 3600_000,
        ),
        sharePercent: int(
          'REMOTE_AUTO_ROLLBACK_SHARE',
          DEFAULTS.remoteAutoRollback.sharePercent,
          0,
          100,
        ),
      },
      warmUpLibraries: bool('WARM_UP_LIBRARIES', true),
      contact: {
        title: process.env.CONTACT_TITLE?.trim() || DEFAULTS.contact.title,
        lines: contactLines('CONTACT_LINES') ?? DEFAULTS.contact.lines.map((line) => ({ ...line })),
      },
      // For developers: on for the embedded one-machine setup; off in production (NODE_ENV) or
      // against a shared PostgreSQL, where a page that runs code from a visitor's own machine
      // is a risk nobody chose. REMOTE_OVERRIDES=on|off decides either way.
      remoteOverrides: bool(
        'REMOTE_OVERRIDES',
        !databaseUrl && process.env.NODE_ENV !== 'production',
      ),
      logLevel: logLevel as AppConfig['logLevel'],
      llm: llmConfig(),
      images: imagesConfig(),
      videos: videosConfig(),
      providerLimits: {
        images: {
          concurrency: int('IMAGE_CONCURRENCY', DEFAULTS.providerLimits.images.concurrency, 1, 64),
          retries: int('IMAGE_RETRIES', DEFAULTS.providerLimits.images.retries, 0, 10),
        },
        videos: {
          concurrency: int('VIDEO_CONCURRENCY', DEFAULTS.providerLimits.videos.concurrency, 1, 64),
        },
      },
      tts: ttsConfig(),
      transcribe: transcribeConfig(),
      writingTaskStaleMs: databaseUrl ? undefined : 0,
      videoTasks: {
        // Off when the installation runs `pnpm --filter @kol/server worker` processes instead.
        workInProcess: bool('VIDEO_WORKERS_IN_PROCESS', true),
        concurrency: int('VIDEO_WORKER_CONCURRENCY', os.availableParallelism(), 1, 256),
        // How long a silent worker counts as alive: its tasks move to another worker after it
        // (and at most as long again, the sweep's period). Shorter: quicker takeover, more
        // heartbeat writes.
        leaseMs: int('VIDEO_TASK_LEASE_MS', 30_000, 2_000, 600_000),
        renderPercent: int('VIDEO_RENDER_PERCENT', 100, 25, 100),
        workDir: path.join(dataDir, 'tasks'),
        stopGraceMs: shutdownGraceMs,
      },
      series: { episodesPerUser: int('SERIES_EPISODES_PER_USER', 1, 1, 64) },
      ops: {
        listen:
          metricsPort === null
            ? null
            : { host: process.env.METRICS_HOST || '127.0.0.1', port: metricsPort },
        shutdownGraceMs,
      },
    },
  };
}

export function isEnvError(error: unknown): error is Error {
  return error instanceof EnvError;
}

/** What the ops CLI reads from the environment. */
export interface CliEnv {
  /** http://127.0.0.1:$PORT unless --server says otherwise. */
  defaultServer: string;
  dataDir: string;
  adminToken: string | null;
  /** The OS user, for the audit log when --actor is not given. */
  osUser: string;
  /** The workspace root, where `remote release` finds `<package>/dist` by default. */
  repoRoot?: string;
  /**
   * Where the user typed the command: `pnpm kol` runs it in server/, so a relative --dir is
   * resolved against pnpm's INIT_CWD instead.
   */
  cwd?: string;
}

export function readCliEnv(): CliEnv {
  return {
    defaultServer: `http://127.0.0.1:${int('PORT', 8080, 1, 65535)}`,
    dataDir: path.resolve(process.env.DATA_DIR || path.join(findRepoRoot(), '.data')),
    adminToken: process.env.KOL_ADMIN_TOKEN || null,
    osUser: process.env.USER || process.env.USERNAME || '',
    repoRoot: findRepoRoot(),
    cwd: process.env.INIT_CWD || process.cwd(),
  };
}
