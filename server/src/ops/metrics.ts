import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ProjectType } from '@kol/shared-sdk/contracts';

/**
 * What a process tells a monitoring system, in the Prometheus text format (served at /metrics,
 * see ops/plugin.ts and ops/ops-server.ts). One registry per process role, not prom-client's
 * global one: the tests build many apps in one process, and each must count its own.
 *
 * Names follow Prometheus conventions: the unit in the name (`_seconds`, `_total`), label values
 * from bounded sets only (route patterns rather than URLs, task types, stage names, provider
 * names, remote names and released versions), never a user id or free text.
 */
export type ProcessRole = 'api' | 'worker';

/** Seconds of an HTTP request: most are milliseconds, an upload or a stream far longer. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds of a stage, a queue wait or a provider call: from a moment to an hour. */
const LONG_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** Render seconds per second of video: below 1 is faster than real time. */
const RATIO_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32];
/** Seconds of a media store operation: a local file is instant, a bucket a round trip. */
const STORE_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30];

const TYPE_NAMES = new Map<number, string>(
  Object.entries(ProjectType).map(([name, value]) => [value, name]),
);

/** A project type as a label value: its name in the SDK's ProjectType (`comics`, `animeShorts`). */
export const typeLabel = (type: number): string => TYPE_NAMES.get(type) ?? 'other';

/** The unfinished video tasks per type and state, for the gauges read at each scrape. */
export interface TaskCount {
  type: number;
  state: string;
  count: number;
}

/** What the gauges read from the database at each scrape (every process sees the same). */
export interface MetricsSources {
  unfinishedTasks(): Promise<TaskCount[]>;
  /** Seconds the oldest queued task has waited, 0 when none waits. */
  oldestQueuedSeconds(): Promise<number>;
  activeSessions(): Promise<number>;
  /** Remotes with a canary running, and its share of signed-in users in percent. */
  canaries(): Promise<Array<{ remote: string; percent: number }>>;
}

/** The gauges' readings from the repositories of a process (API or worker alike). */
export function databaseSources(repos: {
  videoTasks: { countUnfinished(): Promise<TaskCount[]>; oldestQueuedSeconds(): Promise<number> };
  sessions: { countActive(): Promise<number> };
  releaseRecords: {
    active(): Promise<Array<{ remote: string; canary: { percent: number } | null }>>;
  };
}): MetricsSources {
  return {
    unfinishedTasks: () => repos.videoTasks.countUnfinished(),
    oldestQueuedSeconds: () => repos.videoTasks.oldestQueuedSeconds(),
    activeSessions: () => repos.sessions.countActive(),
    canaries: async () =>
      (await repos.releaseRecords.active()).flatMap((entry) =>
        entry.canary ? [{ remote: entry.remote, percent: entry.canary.percent }] : [],
      ),
  };
}

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricsSources | null = null;

  readonly httpRequests = new Counter({
    name: 'kol_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'kol_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });

  readonly signIns = new Counter({
    name: 'kol_sign_ins_total',
    help: 'Sign-in attempts by method (password, sso) and outcome (success, bad_credentials, rate_limited, disabled, refused, sso_unavailable).',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly sessionsActive = new Gauge({
    name: 'kol_sessions_active',
    help: 'Sessions not expired (read from the database at the scrape: the same on every process).',
    registers: [this.registry],
    collect: async () => {
      const count = await this.read((s) => s.activeSessions());
      if (count !== null) this.sessionsActive.set(count);
    },
  });

  readonly videoTasks = new Gauge({
    name: 'kol_video_tasks',
    help: 'Unfinished video tasks by type and state (read from the database at the scrape: the same on every process). The queued ones are the queue depth.',
    labelNames: ['type', 'state'] as const,
    registers: [this.registry],
    collect: async () => {
      const rows = await this.read((s) => s.unfinishedTasks());
      if (rows === null) return;
      this.videoTasks.reset();
      // Both states always present, so an empty queue reads 0 rather than no sample.
      this.videoTasks.set({ type: 'all', state: 'queued' }, 0);
      this.videoTasks.set({ type: 'all', state: 'running' }, 0);
      for (const row of rows) {
        this.videoTasks.inc({ type: typeLabel(row.type), state: row.state }, row.count);
        this.videoTasks.inc({ type: 'all', state: row.state }, row.count);
      }
    },
  });
  readonly queueOldestWait = new Gauge({
    name: 'kol_video_queue_oldest_wait_seconds',
    help: 'How long the oldest queued video task has waited (0 when none waits).',
    registers: [this.registry],
    collect: async () => {
      const seconds = await this.read((s) => s.oldestQueuedSeconds());
      if (seconds !== null) this.queueOldestWait.set(seconds);
    },
  });
  readonly taskQueueWait = new Histogram({
    name: 'kol_video_task_queue_wait_seconds',
    help: 'From a video task being started to a worker taking it, by type.',
    labelNames: ['type'] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });
  readonly tasksFinished = new Counter({
    name: 'kol_video_tasks_finished_total',
    help: 'Video tasks that ended on this process, by type and state (succeeded, failed).',
    labelNames: ['type', 'state'] as const,
    registers: [this.registry],
  });
  readonly stageDuration = new Histogram({
    name: 'kol_video_stage_duration_seconds',
    help: 'Time of one run of a video task stage on this process, by type, stage and outcome (succeeded, failed, given_back).',
    labelNames: ['type', 'stage', 'outcome'] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });
  readonly renderRatio = new Histogram({
    name: 'kol_video_render_seconds_per_video_second',
    help: 'Seconds of stage time per second of finished video, by type (below 1: faster than real time).',
    labelNames: ['type'] as const,
    buckets: RATIO_BUCKETS,
    registers: [this.registry],
  });

  readonly providerCalls = new Counter({
    name: 'kol_provider_calls_total',
    help: 'Calls to outside services by provider, kind (text, chat, images, videos, speech, transcription) and outcome (ok, or the failure: timeout, unreachable, unauthorized, rate_limited, server, rejected, fell_back...).',
    labelNames: ['provider', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly providerDuration = new Histogram({
    name: 'kol_provider_call_duration_seconds',
    help: 'Time of one call to an outside service, by provider and kind.',
    labelNames: ['provider', 'kind'] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });

  readonly remoteLoadFailures = new Counter({
    name: 'kol_remote_load_failures_total',
    help: 'Load failures browsers reported, by remote and version (version "unverified" when the server did not hand that version to that user).',
    labelNames: ['remote', 'version'] as const,
    registers: [this.registry],
  });
  readonly remoteRollbacks = new Counter({
    name: 'kol_remote_auto_rollbacks_total',
    help: 'Automatic rollbacks of a remote release after failure reports, by remote.',
    labelNames: ['remote'] as const,
    registers: [this.registry],
  });
  readonly canaryShare = new Gauge({
    name: 'kol_remote_canary_share_ratio',
    help: 'Share of signed-in users given the canary of a remote (0 to 1), for remotes with a canary running.',
    labelNames: ['remote'] as const,
    registers: [this.registry],
    collect: async () => {
      const canaries = await this.read((s) => s.canaries());
      if (canaries === null) return;
      this.canaryShare.reset();
      for (const { remote, percent } of canaries) this.canaryShare.set({ remote }, percent / 100);
    },
  });

  readonly storeOperations = new Counter({
    name: 'kol_media_store_operations_total',
    help: 'Media store operations by area (media, uploads, releases), operation and outcome (ok, error).',
    labelNames: ['area', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly storeDuration = new Histogram({
    name: 'kol_media_store_operation_duration_seconds',
    help: 'Time of a media store operation, by area and operation.',
    labelNames: ['area', 'operation'] as const,
    buckets: STORE_BUCKETS,
    registers: [this.registry],
  });

  constructor(readonly role: ProcessRole) {
    // CPU, memory, event loop lag, GC, handles: Node's own, as every Node exporter names them.
    collectDefaultMetrics({ register: this.registry });
    this.registry.setDefaultLabels({ role });
  }

  /** Where the gauges read the database; until then they have no samples. */
  readFrom(sources: MetricsSources): void {
    this.sources = sources;
  }

  /**
   * A gauge's reading, or null when it cannot be read (no database yet, or it does not answer):
   * the scrape still answers with everything else, and the readiness endpoint says why.
   */
  private async read<T>(fn: (sources: MetricsSources) => Promise<T>): Promise<T | null> {
    if (!this.sources) return null;
    try {
      return await fn(this.sources);
    } catch {
      return null;
    }
  }

  /** The text a scrape answers. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Runs `fn` and records its time and outcome through `done(outcome, seconds)`. */
export async function timed<T>(
  fn: () => Promise<T>,
  done: (outcome: 'ok' | 'error', seconds: number, error?: unknown) => void,
): Promise<T> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await fn();
    done('ok', seconds());
    return result;
  } catch (error) {
    done('error', seconds(), error);
    throw error;
  }
}
