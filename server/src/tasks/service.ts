import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EventEmitter } from 'node:events';
import { Value } from 'typebox/value';
import {
  ErrorCode,
  QualityReport,
  QUOTA_FIELDS,
  QUOTA_TYPE_LABELS,
  QUOTA_TYPE_OF_PROJECT,
  canUseProjectType,
  exportFactsOf,
  exportRefusalOf,
  type QuotaType,
  type WorkResult,
} from '@kol/shared-sdk/contracts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/api-error';
import type { Database } from '../db/schema';
import type { Repositories } from '../repositories';
import type { QuotaBucket } from '../repositories/quotas';
import type { VideoTaskRow } from '../repositories/video-tasks';
import type { TaskQueue } from './queue';
import type { PipelineRegistry, TaskKind } from './registry';
import type { Metrics } from '../ops/metrics';
import { EVENT_PROGRESS, progressEvent, TaskRunner, type Logger } from './runner';
import type { TaskFiles, TaskProgressEvent } from './types';

export interface VideoTaskServiceOptions {
  repos: Repositories;
  registry: PipelineRegistry;
  /** Opened lazily: a process that never starts or runs a task never starts pg-boss. */
  openQueue(supervise: boolean): Promise<TaskQueue>;
  log: Logger;
  workDir: string;
  /** Keeps task files beyond this process (TaskRunnerOptions.files). */
  files?: TaskFiles;
  concurrency?: number;
  leaseMs?: number;
  takeOverAllOnStart: boolean;
  progressWriteMs?: number;
  /** TaskRunnerOptions.metrics. */
  metrics?: Metrics;
  /** How long a running stage may finish at a stop (TaskRunner.stop's graceMs); 0: at once. */
  stopGraceMs?: number;
}

/** What startTask starts. */
export interface StartRequest {
  userId: number;
  workId: number | null;
  type: number;
  kind: TaskKind;
  input?: Record<string, unknown>;
  /** Spends a count of the type's quota as the task is created. */
  spend?: 'gen' | 'merge';
  /** A count already spent for this task (a series sets one aside per episode): the task takes it. */
  prepaid?: QuotaBucket;
}

const quotaTypeOf = (type: number): QuotaType | null =>
  (QUOTA_TYPE_OF_PROJECT as Record<number, QuotaType | undefined>)[type] ?? null;

const BUSY_MESSAGE = '该作品正在生成中，请等待完成或取消后再试';

/** The kinds of which a work runs one at a time, and what a second start answers. */
const EXCLUSIVE: Partial<Record<TaskKind, { kinds: TaskKind[]; message: string }>> = {
  // A storyboard task rewrites the work's shots: no render may read them half written.
  video: { kinds: ['video', 'merge', 'storyboard'], message: BUSY_MESSAGE },
  merge: { kinds: ['video', 'merge'], message: BUSY_MESSAGE },
  storyboard: { kinds: ['video', 'merge'], message: BUSY_MESSAGE },
  'cut-speech': { kinds: ['cut-speech'], message: '片段配音正在生成中，请等待完成后再试' },
};

/**
 * The quality report stored with a task's outputs (its compose stage writes it); null for a
 * task not finished, or made before reports existed, or whose stored report no longer reads.
 */
const reportOf = (value: unknown): QualityReport | null =>
  Value.Check(QualityReport, value) ? value : null;

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/**
 * Video tasks for the API: start (spending a count), cancel, progress; and, when this process
 * works jobs, the runner. Routes call this, never the repository.
 */
export class VideoTaskService {
  /** `progress` events (TaskProgressEvent) of tasks run or changed by this process. */
  readonly events = new EventEmitter();
  private readonly repo;
  private queue: Promise<TaskQueue> | null = null;
  private supervising = false;
  private runner: TaskRunner | null = null;

  constructor(private readonly options: VideoTaskServiceOptions) {
    this.repo = options.repos.videoTasks;
    // Every SSE connection adds a listener; the default limit of 10 would warn for nothing.
    this.events.setMaxListeners(0);
  }

  private openQueue(supervise: boolean): Promise<TaskQueue> {
    if (!this.queue || (supervise && !this.supervising)) {
      if (this.queue) throw new Error('start the worker before the first task is sent');
      this.supervising = supervise;
      this.queue = this.options.openQueue(supervise).catch((error: unknown) => {
        this.queue = null;
        throw error;
      });
    }
    return this.queue;
  }

  /** Runs jobs in this process (the server by default, or src/worker.ts). */
  async startWorker(): Promise<TaskRunner> {
    if (this.runner) return this.runner;
    const queue = await this.openQueue(true);
    const runner = new TaskRunner({
      repos: this.options.repos,
      queue,
      registry: this.options.registry,
      events: this.events,
      log: this.options.log,
      workDir: this.options.workDir,
      files: this.options.files,
      concurrency: this.options.concurrency,
      leaseMs: this.options.leaseMs,
      takeOverAllOnStart: this.options.takeOverAllOnStart,
      progressWriteMs: this.options.progressWriteMs,
      metrics: this.options.metrics,
    });
    await runner.start();
    this.runner = runner;
    return runner;
  }

  /** TaskRunner.beginDrain, when this process runs jobs. */
  async beginDrain(): Promise<void> {
    await this.runner?.beginDrain();
  }

  async stop(): Promise<void> {
    const queue = this.queue;
    this.queue = null;
    if (this.runner) {
      await this.runner.stop({ graceMs: this.options.stopGraceMs ?? 0 });
      this.runner = null;
    } else if (queue) {
      await (await queue.catch(() => null))?.stop();
    }
  }

  /**
   * gen_video: spends one generation count of the work's type and starts its video pipeline.
   * No count left: 402 naming the type, and nothing is enqueued.
   */
  async startVideoTask(userId: number, workId: number): Promise<{ taskId: string }> {
    const work = await this.ownWork(userId, workId);
    return this.startTask({ userId, workId, type: work.type, kind: 'video', spend: 'gen' });
  }

  /**
   * send_merge_request: spends a merge count of the work's type (the scroll type has none:
   * 400) and starts its merge pipeline.
   */
  async startMergeTask(userId: number, workId: number): Promise<{ taskId: string }> {
    const work = await this.ownWork(userId, workId);
    return this.startTask({ userId, workId, type: work.type, kind: 'merge', spend: 'merge' });
  }

  /**
   * anime_storyboard: the work's storyboard task still running, or a new one (no count spent),
   * so a second click or a reload follows the same task instead of drawing twice.
   */
  async startStoryboardTask(userId: number, workId: number): Promise<{ taskId: string }> {
    const work = await this.ownWork(userId, workId);
    const latest = await this.repo.latestForWork(userId, workId, ['storyboard']);
    if (latest && (latest.state === 'queued' || latest.state === 'running')) {
      return { taskId: latest.id };
    }
    return this.startTask({ userId, workId, type: work.type, kind: 'storyboard' });
  }

  /** 403 unless the user may make videos of this type (template id, functional level). */
  async requireProjectType(
    userId: number,
    type: number,
    repos: Repositories = this.options.repos,
  ): Promise<void> {
    const user = await repos.users.findById(userId);
    const allowed = canUseProjectType(
      user ? { templateIds: user.template_ids, functionalLevel: user.functional_level } : null,
      type,
    );
    if (!allowed) {
      const quotaType = quotaTypeOf(type);
      throw forbidden(
        `你没有使用「${quotaType ? QUOTA_TYPE_LABELS[quotaType] : '该视频类型'}」的权限`,
      );
    }
  }

  /** Whether the work was ever merged (re_send_merge_request needs an earlier merge). */
  async hasMerged(userId: number, workId: number): Promise<boolean> {
    return (await this.repo.latestForWork(userId, workId, ['merge'])) !== null;
  }

  /** The caller's work, or 404 (another user's work is "not found" too: nothing leaks). */
  async ownWork(userId: number, workId: number): Promise<{ id: number; type: number }> {
    const work = await this.options.repos.works.find(userId, workId);
    if (!work) throw notFound('作品不存在');
    return { id: workId, type: work.type };
  }

  /**
   * Starts a task: spends the count (when `spend` is given) and inserts the task in one
   * transaction, so a refused insert gives the count back; then enqueues it. A video or merge
   * of a work that has one running: 409.
   */
  async startTask(request: StartRequest): Promise<{ taskId: string }> {
    const taskId = await this.startWithin((_repos, start) => start(request));
    return { taskId };
  }

  /**
   * Runs `body` in one transaction in which `start` starts tasks as startTask does (checks,
   * count, job): they commit with whatever else `body` writes there, or nothing does. A caller
   * that decides what to start from rows it reads in that transaction (the series' next
   * episode) cannot start it twice. Everything `body` does must go through `repos`: on the
   * embedded database another connection would wait for this transaction to end.
   */
  async startWithin<T>(
    body: (repos: Repositories, start: (request: StartRequest) => Promise<string>) => Promise<T>,
  ): Promise<T> {
    // Opened before the transaction: starting pg-boss runs statements of its own, which on the
    // embedded database would wait for the transaction's turn to end.
    const queue = await this.openQueue(false);
    const started: string[] = [];
    let result: T;
    try {
      result = await this.options.repos.transaction(async (repos, trx) =>
        body(repos, async (request) => {
          const taskId = await this.insertTask(repos, trx, queue, request);
          started.push(taskId);
          return taskId;
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(BUSY_MESSAGE);
      throw error;
    }
    if (started.length > 0) queue.wake();
    for (const taskId of started) {
      const task = await this.repo.find(taskId);
      if (task) this.emitTask(task);
    }
    return result;
  }

  private async insertTask(
    repos: Repositories,
    trx: Kysely<Database>,
    queue: TaskQueue,
    request: StartRequest,
  ): Promise<string> {
    const { userId, workId, type, kind } = request;
    // A video of a type (or its merge, segment speech, a shot picture of its work) needs the
    // type's template id, like its works page; speech tries and role portraits do not.
    if (kind === 'video' || kind === 'merge' || kind === 'cut-speech' || workId !== null) {
      await this.requireProjectType(userId, type, repos);
    }
    const quotaType = quotaTypeOf(type);
    const pipeline = this.options.registry.get(type, kind);
    if (!pipeline || ((request.spend || request.prepaid) && !quotaType)) {
      throw badRequest(kind === 'merge' ? '该视频类型没有合成步骤' : '该视频类型暂不支持生成');
    }
    if (request.spend === 'merge' && quotaType && QUOTA_FIELDS[quotaType].merge === null) {
      throw badRequest(`${QUOTA_TYPE_LABELS[quotaType]}没有合成次数`);
    }
    // One video or merge at a time per work, and one speech of its cut segments. Checked first
    // so the answer is "busy" rather than "no count left"; for videos and merges the unique
    // index video_tasks_one_active_idx still decides when two starts race.
    const rival = EXCLUSIVE[kind];
    if (workId !== null && rival) {
      const busy = await repos.videoTasks.activeOfWork(workId, rival.kinds);
      if (busy) throw conflict(rival.message);
    }
    const taskId = randomUUID();
    let spent: { quotaType: QuotaType; bucket: QuotaBucket } | null = null;
    if (request.prepaid && quotaType) {
      spent = { quotaType, bucket: request.prepaid };
    } else if (request.spend && quotaType) {
      const bucket = await repos.quotas.spend(userId, quotaType, request.spend);
      if (!bucket) {
        const what = request.spend === 'merge' ? '合成' : '生成';
        throw new ApiError(
          ErrorCode.quotaExhausted,
          `${QUOTA_TYPE_LABELS[quotaType]}的${what}次数已用完`,
        );
      }
      spent = { quotaType, bucket };
    }
    // The job commits with the task and its count, or none of them do: a task answered
    // "started" always runs.
    const jobId = await queue.send(taskId, trx);
    await repos.videoTasks.create({
      id: taskId,
      workId,
      userId,
      type,
      kind,
      input: request.input ?? {},
      spent,
      stages: pipeline.map((stage) => ({ name: stage.name, weight: stage.weight })),
      jobId,
    });
    return taskId;
  }

  /**
   * The user's cancel. The count is NOT given back: cancelling is the user's choice, and
   * giving it back would let anyone run the costly early stages for free, cancel, and repeat.
   * The running stage is aborted at once when it runs in this process; in another process, at
   * that process's next heartbeat or stage boundary.
   */
  async cancel(userId: number, taskId: string): Promise<void> {
    // Another user's task, or an id that is no task at all: not found alike.
    if (!(await this.repo.findOwned(userId, taskId))) throw notFound('任务不存在');
    const task = await this.repo.cancel(userId, taskId);
    if (!task) throw conflict('任务已结束，无法取消');
    this.runner?.abortLocal(taskId, 'cancelled');
    this.emitTask(task);
  }

  /** A task of this user with its merged outputs (img_result, async_tts_try_result); null if not theirs. */
  async findTask(userId: number, taskId: string): Promise<VideoTaskRow | null> {
    return this.repo.findOwned(userId, taskId);
  }

  /** The get_work_result shape of one task of this user; null when unknown or not theirs. */
  async getTaskProgress(userId: number, taskId: string): Promise<WorkResult | null> {
    const task = await this.repo.findOwned(userId, taskId);
    return task ? this.workResult(task) : null;
  }

  /**
   * get_work_result of a work of this user: its newest task, or, for a work never generated,
   * nothing running and nothing made (the works list shows such a work the same way).
   */
  async getWorkProgress(userId: number, workId: number): Promise<WorkResult> {
    const task = await this.repo.latestForWork(userId, workId);
    if (task) return this.workResult(task);
    return {
      workId,
      taskId: null,
      state: 'succeeded',
      stage: '',
      progress: 0,
      etaSeconds: null,
      stages: [],
      videoUrl: '',
      srtUrl: '',
      coverUrl: '',
      durationMs: 0,
      error: null,
      report: null,
    };
  }

  private async workResult(task: VideoTaskRow): Promise<WorkResult> {
    const stages = await this.repo.stages(task.id);
    const text = (key: string) => {
      const value = task.outputs[key];
      return typeof value === 'string' ? value : '';
    };
    return {
      workId: task.work_id ?? 0,
      taskId: task.id,
      state: task.state,
      stage: task.stage,
      progress: task.progress,
      etaSeconds: task.state === 'running' || task.state === 'queued' ? task.eta_seconds : null,
      stages: stages.map((stage) => ({
        name: stage.name,
        state: stage.state,
        progress: stage.progress,
        error: stage.error,
      })),
      videoUrl: text('videoUrl'),
      srtUrl: text('srtUrl'),
      coverUrl: text('coverUrl'),
      durationMs:
        typeof task.outputs.videoDurationMs === 'number' ? task.outputs.videoDurationMs : 0,
      error: task.error,
      report: reportOf(task.outputs.report),
      exportRefusal:
        task.state === 'succeeded' && text('videoUrl')
          ? exportRefusalOf(task.type, exportFactsOf(task.outputs))
          : null,
    };
  }

  private emitTask(task: VideoTaskRow) {
    this.events.emit(EVENT_PROGRESS, progressEvent(task) satisfies TaskProgressEvent);
  }
}
