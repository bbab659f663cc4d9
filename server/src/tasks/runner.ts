import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EventEmitter } from 'node:events';
import { typeLabel, type Metrics } from '../ops/metrics';
import type { Repositories } from '../repositories';
import type { VideoTaskRow } from '../repositories/video-tasks';
import { StageError, stageErrorMessage } from './errors';
import { RENDER_SECONDS_PER_VIDEO_SECOND, RemainingTime, plannedVideoMs } from './eta';
import type { TaskQueue } from './queue';
import type { PipelineRegistry, PipelineStage } from './registry';
import { checkReturnedOutput, checkStoredOutput } from './stage';
import type { StageOutputs, StageTask, TaskFiles, TaskProgressEvent } from './types';

/** Why a running stage was aborted; the runner acts on it when the stage returns. */
type AbortReason = 'cancelled' | 'lost' | 'shutdown' | 'killed';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface TaskRunnerOptions {
  repos: Repositories;
  queue: TaskQueue;
  registry: PipelineRegistry;
  events: EventEmitter;
  log: Logger;
  /** Parent of the per-task directories (removed when the task leaves this process). */
  workDir: string;
  /** Keeps a task's files beyond this process (an object store); absent: they stay here. */
  files?: TaskFiles;
  /** Jobs at once in this process; capped by the cores. */
  concurrency?: number;
  /** A runner silent this long has died; its running tasks are taken over. */
  leaseMs?: number;
  /**
   * At start, take over every running task (the embedded database: no other process can be
   * alive) rather than only those whose lease ran out.
   */
  takeOverAllOnStart: boolean;
  /** Minimum time between two progress writes of one task. */
  progressWriteMs?: number;
  /** Where the queue waits, stage times and render ratios are counted (ops/metrics.ts). */
  metrics?: Metrics;
}

export interface StopOptions {
  /**
   * How long a running stage may go on to finish before it is aborted; no further stage starts
   * either way, and the task is given back to resume on another process. 0: abort at once.
   */
  graceMs?: number;
}

export const EVENT_PROGRESS = 'progress';

export function progressEvent(task: VideoTaskRow): TaskProgressEvent {
  return {
    taskId: task.id,
    workId: task.work_id,
    kind: task.kind,
    userId: task.user_id,
    state: task.state,
    stage: task.stage,
    progress: task.progress,
    etaSeconds: task.eta_seconds,
    error: task.error,
  };
}

/** Overall percent from stage weights: finished stages count whole, the running one in part. */
export function overallProgress(
  stages: ReadonlyArray<{ weight: number; state: string; progress: number }>,
): number {
  const total = stages.reduce((sum, stage) => sum + stage.weight, 0);
  if (total <= 0) return 0;
  const done = stages.reduce(
    (sum, stage) =>
      sum + stage.weight * (stage.state === 'succeeded' ? 1 : Math.min(stage.progress, 100) / 100),
    0,
  );
  return Math.round((done / total) * 1000) / 10;
}

/** Remaining seconds, assuming the rest goes at the pace so far; null before any progress. */
export function etaSeconds(
  startedAt: Date | null,
  progress: number,
  now = Date.now(),
): number | null {
  if (!startedAt || progress <= 0) return null;
  if (progress >= 100) return 0;
  const elapsed = (now - startedAt.getTime()) / 1000;
  return Math.max(0, Math.round((elapsed / progress) * (100 - progress)));
}

/** The task as a stage (and the task files) see it. */
function stageTask(task: VideoTaskRow): StageTask {
  return {
    id: task.id,
    workId: task.work_id,
    userId: task.user_id,
    type: task.type,
    kind: task.kind,
    input: task.input,
  };
}

/**
 * Runs video tasks from the queue: one job per task runs its remaining stages in order and
 * records each in the database as it finishes, so a job retried after a crash (or re-enqueued
 * at start) skips every finished stage. A lease (runner_id + heartbeat) keeps two jobs of one
 * task from running it at the same time.
 */
export class TaskRunner {
  readonly id = randomUUID();
  readonly concurrency: number;
  private readonly repo;
  private readonly leaseMs: number;
  private readonly active = new Map<string, AbortController>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private killed = false;
  /** Stopping: the running stages may finish, no next stage starts. */
  private draining = false;

  constructor(private readonly options: TaskRunnerOptions) {
    this.repo = options.repos.videoTasks;
    this.leaseMs = options.leaseMs ?? 30_000;
    // Stages spawn ffmpeg and friends: more jobs than cores only makes each slower.
    const cores = os.availableParallelism();
    this.concurrency = Math.max(1, Math.min(options.concurrency ?? cores, cores));
  }

  async start(): Promise<void> {
    await this.recover(this.options.takeOverAllOnStart ? 0 : this.leaseMs);
    await this.options.queue.work(this.concurrency, (taskId) => this.runTask(taskId));
    // Separate worker processes: another's death is noticed when its lease runs out.
    this.sweepTimer = setInterval(() => {
      this.recover(this.leaseMs).catch((error: unknown) =>
        this.options.log.error({ err: error }, 'video task sweep failed'),
      );
    }, this.leaseMs);
    this.sweepTimer.unref();
  }

  /**
   * Hands tasks whose job was lost to a new job: running tasks whose runner is gone, and queued
   * tasks whose job pg-boss no longer holds for a live worker. `leaseMs` 0 (the start of the
   * only process on the embedded database): every such task, however recent.
   */
  private async recover(leaseMs: number): Promise<void> {
    const { queue } = this.options;
    const orphans = (await this.repo.orphans(leaseMs)).filter((task) => !this.active.has(task.id));
    if (leaseMs <= 0) await this.repo.freeLeases(orphans.map((task) => task.id));
    const stranded: typeof orphans = [];
    for (const task of await this.repo.waiting(leaseMs)) {
      if (this.active.has(task.id)) continue;
      const job = task.jobId ? await queue.job(task.jobId) : null;
      const pending = job?.state === 'created' || job?.state === 'retry';
      const heldByLiveWorker =
        job?.state === 'active' &&
        leaseMs > 0 &&
        job.startedOn !== null &&
        Date.now() - job.startedOn.getTime() < leaseMs;
      if (!pending && !heldByLiveWorker) stranded.push(task);
    }
    const lost = [...orphans, ...stranded];
    if (lost.length === 0) return;
    this.options.log.info(
      { tasks: lost.map((task) => task.id) },
      'resuming video tasks whose runner or job was lost',
    );
    // The dead worker's job would otherwise stay active until it expires, then run again.
    await queue.retire(lost.flatMap((task) => (task.jobId ? [task.jobId] : [])));
    for (const task of lost) {
      await this.options.repos.transaction(async (repos, trx) => {
        await repos.videoTasks.setJob(task.id, await queue.send(task.id, trx));
      });
    }
    queue.wake();
  }

  /** Aborts the stage running here, if any (a cancel seen by this process). */
  abortLocal(taskId: string, reason: AbortReason): void {
    this.active.get(taskId)?.abort(reason);
  }

  /**
   * Takes no further job and starts no further stage (the running ones go on): the first step
   * of a stop, taken as soon as a process is told to stop, while its requests drain.
   */
  async beginDrain(): Promise<void> {
    this.draining = true;
    await this.options.queue.pause();
  }

  /**
   * Stops taking jobs; each running stage may finish within `graceMs`, then the rest are aborted,
   * and every task running here is given back (re-enqueued: another process resumes it from its
   * last finished stage, or this one at its next start).
   */
  async stop({ graceMs = 0 }: StopOptions = {}): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.beginDrain();
    const deadline = Date.now() + graceMs;
    while (this.active.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const controller of this.active.values())
      controller.abort('shutdown' satisfies AbortReason);
    await this.options.queue.stop({ graceful: true });
  }

  /**
   * For tests: behave as if the process died now. Nothing more is written for the running
   * tasks (their lease stays, their stage stays "running"), and pg-boss drops its jobs.
   */
  async kill(): Promise<void> {
    this.killed = true;
    clearInterval(this.sweepTimer);
    for (const controller of this.active.values()) controller.abort('killed' satisfies AbortReason);
    await this.options.queue.stop({ graceful: false });
  }

  private emit(task: VideoTaskRow | null) {
    if (task) this.options.events.emit(EVENT_PROGRESS, progressEvent(task));
  }

  async runTask(taskId: string): Promise<void> {
    // A second job of a task already running here (a retry, a re-enqueue): nothing to do.
    if (this.killed || this.active.has(taskId)) return;
    const task = await this.repo.claim(taskId, this.id, this.leaseMs);
    if (!task) return;
    const controller = new AbortController();
    this.active.set(taskId, controller);
    const heartbeat = setInterval(
      () => {
        this.repo
          .heartbeat(taskId, this.id)
          .then((held) => {
            // Cancelled by a request served by another process, or taken over.
            if (!held) controller.abort('lost' satisfies AbortReason);
          })
          .catch((error: unknown) =>
            this.options.log.warn({ err: error, taskId }, 'video task heartbeat failed'),
          );
      },
      Math.max(200, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      await this.runStages(task, controller);
    } finally {
      clearInterval(heartbeat);
      this.active.delete(taskId);
      // Whatever the end (done, failed, cancelled, given back at shutdown), ffmpeg's scratch
      // files and the local copies go: the next run, here or elsewhere, starts from the store.
      if (!this.killed) await this.cleanUp(task);
    }
  }

  /**
   * The task's expected render time from its video's expected length (the SDK's speech model),
   * for a video task whose work is there; null otherwise (then only the pace counts).
   */
  private async plannedSeconds(task: VideoTaskRow): Promise<number | null> {
    if (task.kind !== 'video' || task.work_id === null) return null;
    try {
      const work = await this.options.repos.works.find(task.user_id, task.work_id);
      const ms = work ? plannedVideoMs(work) : null;
      return ms === null ? null : (ms / 1000) * RENDER_SECONDS_PER_VIDEO_SECOND;
    } catch (error) {
      // Only an estimate: the task runs on without it.
      this.options.log.warn({ err: error, taskId: task.id }, 'video task plan not read');
      return null;
    }
  }

  private async cleanUp(task: VideoTaskRow): Promise<void> {
    try {
      await rm(path.join(this.options.workDir, task.id), { recursive: true, force: true });
      await this.options.files?.drop(stageTask(task));
    } catch (error) {
      this.options.log.warn({ err: error, taskId: task.id }, 'video task clean-up failed');
    }
  }

  private async runStages(task: VideoTaskRow, controller: AbortController): Promise<void> {
    const pipeline = this.options.registry.get(task.type, task.kind);
    if (!pipeline) {
      // Not the user's fault: the installation lost the pipeline the task was started with.
      const failed = await this.repo.fail(task.id, this.id, null, '该视频类型暂不支持生成', true);
      this.emit(failed?.task ?? null);
      return;
    }
    const rows = await this.repo.stages(task.id);
    const byName = new Map(rows.map((row) => [row.name, row]));
    const states = pipeline.map((stage) => ({
      weight: stage.weight,
      state: byName.get(stage.name)?.state ?? 'queued',
      progress: byName.get(stage.name)?.progress ?? 0,
    }));
    const outputs: Record<string, StageOutputs> = {};
    for (const row of rows) if (row.state === 'succeeded') outputs[row.name] = row.outputs ?? {};
    // A resume reads outputs stored by an earlier run (maybe an earlier release): each must
    // still fit its stage's schema, or the task fails here, naming the stage, before any runs.
    for (const stage of pipeline) {
      if (byName.get(stage.name)?.state !== 'succeeded') continue;
      try {
        checkStoredOutput(stage.handler, outputs[stage.name]);
      } catch (error) {
        return this.onStageError(task, stage, error);
      }
    }
    const workDir = path.join(this.options.workDir, task.id);
    await mkdir(workDir, { recursive: true });
    try {
      await this.options.files?.fetch(stageTask(task));
    } catch (error) {
      // The store did not answer: the job fails and pg-boss retries it, as for a crash.
      this.options.log.error({ err: error, taskId: task.id }, 'video task files not fetched');
      throw error;
    }
    this.emit(task);
    const remaining = new RemainingTime(task.started_at, await this.plannedSeconds(task));

    // The first run of the task (no stage tried yet): how long it waited for a worker.
    if (rows.every((row) => row.attempts === 0) && task.started_at) {
      this.options.metrics?.taskQueueWait.observe(
        { type: typeLabel(task.type) },
        Math.max(0, (task.started_at.getTime() - task.created_at.getTime()) / 1000),
      );
    }

    for (const [index, stage] of pipeline.entries()) {
      const row = byName.get(stage.name);
      const state = states[index];
      if (!state || row?.state === 'succeeded') continue;
      // Stopping: the stage that ran may have finished, no further one starts here.
      if (this.draining) controller.abort('shutdown' satisfies AbortReason);
      if (controller.signal.aborted) return this.onAbort(task, controller, stage);
      state.state = 'running';
      state.progress = 0;
      const attempt = await this.repo.startStage(
        task.id,
        this.id,
        stage.name,
        overallProgress(states),
      );
      if (attempt === null) return; // cancelled or taken between stages
      this.emit({
        ...task,
        state: 'running',
        stage: stage.name,
        progress: overallProgress(states),
        // Never the claim's stored value: that one is older, and may be higher.
        eta_seconds: remaining.next(overallProgress(states)),
      });

      let result: StageOutputs;
      const progress = this.progressWriter(task, stage, states, state, remaining);
      const stageStarted = Date.now();
      const timeStage = (outcome: string) =>
        this.options.metrics?.stageDuration.observe(
          { type: typeLabel(task.type), stage: stage.name, outcome },
          (Date.now() - stageStarted) / 1000,
        );
      try {
        result = await stage.handler.run({
          task: stageTask(task),
          outputs: { ...outputs },
          reportProgress: progress.report,
          signal: controller.signal,
          workDir,
          attempt,
        });
        if (result === null || typeof result !== 'object' || Array.isArray(result)) {
          throw new Error(`stage ${stage.name} returned no outputs object`);
        }
        checkReturnedOutput(stage.handler, result);
        // Kept before the stage counts as finished: a resume elsewhere skips it and reads them.
        await this.options.files?.keep(stageTask(task));
      } catch (error) {
        await progress.flush();
        if (controller.signal.aborted) {
          timeStage(controller.signal.reason === 'shutdown' ? 'given_back' : 'cancelled');
          return this.onAbort(task, controller, stage);
        }
        timeStage('failed');
        return this.onStageError(task, stage, error);
      }
      timeStage('succeeded');
      await progress.flush();
      if (this.killed) return;
      state.state = 'succeeded';
      if (
        !(await this.repo.finishStage(
          task.id,
          this.id,
          stage.name,
          result,
          overallProgress(states),
        ))
      ) {
        return;
      }
      outputs[stage.name] = result;
    }
    // Later stages override earlier keys: the final video of `compose` wins over drafts.
    const merged = Object.assign({}, ...pipeline.map((stage) => outputs[stage.name] ?? {}));
    const succeeded = await this.repo.succeed(task.id, this.id, merged);
    if (succeeded) this.countFinished(task, 'succeeded', merged);
    this.emit(succeeded);
  }

  /** A task that ended here: counted, and for a video its render time per second of video. */
  private countFinished(task: VideoTaskRow, state: 'succeeded' | 'failed', outputs?: object) {
    const metrics = this.options.metrics;
    if (!metrics) return;
    metrics.tasksFinished.inc({ type: typeLabel(task.type), state });
    const videoMs = (outputs as { durationMs?: unknown } | undefined)?.durationMs;
    if (task.kind === 'video' && typeof videoMs === 'number' && videoMs > 0 && task.started_at) {
      const renderSeconds = (Date.now() - task.started_at.getTime()) / 1000;
      metrics.renderRatio.observe({ type: typeLabel(task.type) }, renderSeconds / (videoMs / 1000));
    }
  }

  private async onAbort(task: VideoTaskRow, controller: AbortController, stage: PipelineStage) {
    const reason = controller.signal.reason as AbortReason;
    if (reason === 'killed') throw new Error('runner killed');
    if (reason === 'shutdown') {
      await this.repo.release(task.id, this.id);
      // A new job at once: a worker still running resumes it now rather than at its next
      // sweep (on the embedded database, this process at its next start).
      await this.options.repos.transaction(async (repos, trx) => {
        await repos.videoTasks.setJob(task.id, await this.options.queue.send(task.id, trx));
      });
      this.options.log.info(
        { taskId: task.id, stage: stage.name },
        'video task given back at shutdown',
      );
    }
    // cancelled / lost: the cancel already wrote the task's state; another runner owns it.
  }

  private async onStageError(task: VideoTaskRow, stage: PipelineStage, error: unknown) {
    if (this.killed) throw new Error('runner killed');
    const message = stageErrorMessage(stage.label, error);
    const userFault = error instanceof StageError && error.userFault;
    this.options.log[userFault ? 'info' : 'error'](
      { err: error, taskId: task.id, stage: stage.name },
      'video task stage failed',
    );
    const failed = await this.repo.fail(task.id, this.id, stage.name, message, !userFault);
    if (failed) this.countFinished(task, 'failed');
    this.emit(failed?.task ?? null);
  }

  /** Progress of one stage: pushed to listeners at once, written at most every progressWriteMs. */
  private progressWriter(
    task: VideoTaskRow,
    stage: PipelineStage,
    states: Array<{ weight: number; state: string; progress: number }>,
    state: { progress: number },
    remaining: RemainingTime,
  ) {
    const minGap = this.options.progressWriteMs ?? 1_000;
    let lastWrite = 0;
    let writing: Promise<void> = Promise.resolve();
    let dirty = false;
    const write = () => {
      dirty = false;
      lastWrite = Date.now();
      const overall = overallProgress(states);
      const eta = remaining.next(overall);
      writing = writing
        .then(() => this.repo.progress(task.id, this.id, stage.name, state.progress, overall, eta))
        .catch((error: unknown) =>
          this.options.log.warn(
            { err: error, taskId: task.id },
            'video task progress write failed',
          ),
        );
    };
    return {
      report: (percent: number) => {
        if (!Number.isFinite(percent) || this.killed) return;
        state.progress = Math.max(state.progress, Math.min(100, Math.max(0, percent)));
        const overall = overallProgress(states);
        this.options.events.emit(EVENT_PROGRESS, {
          ...progressEvent(task),
          state: 'running',
          stage: stage.name,
          progress: overall,
          etaSeconds: remaining.next(overall),
        } satisfies TaskProgressEvent);
        dirty = true;
        if (Date.now() - lastWrite >= minGap) write();
      },
      flush: async () => {
        if (dirty && !this.killed) write();
        await writing;
      },
    };
  }
}
