import type { TObject } from 'typebox';

/** What one stage hands to the stages after it (JSON: it is stored in video_task_stages.outputs). */
export type StageOutputs = Record<string, unknown>;

/** The task as a stage sees it. */
export interface StageTask {
  id: string;
  /** The work the task makes or changes; null for a task of no work (an image, a speech try). */
  workId: number | null;
  userId: number;
  /** Project type of the work (spec section 3 numbers). */
  type: number;
  /** video, merge, image or speech (see registry.ts). */
  kind: string;
  /** What the task was asked when it started (JSON stored on the task). */
  input: Readonly<Record<string, unknown>>;
}

export interface StageContext {
  task: StageTask;
  /** Outputs of the stages before this one, by stage name (read from the database on a resume). */
  outputs: Readonly<Record<string, StageOutputs>>;
  /** This stage's own progress, 0 to 100; cheap to call often (database writes are throttled). */
  reportProgress(percent: number): void;
  /** Aborted on cancel, on a runner shutting down, or when the task was taken from this runner. */
  signal: AbortSignal;
  /**
   * Scratch space of this task on this machine (ffmpeg's temporary files): made before the
   * first stage, removed when the task leaves this process, so a stage must not expect what an
   * earlier stage left there. What later stages read goes into the task's media folder.
   */
  workDir: string;
  /** 1 on the first run of this stage, more when a crash or restart made it run again. */
  attempt: number;
}

export interface StageHandler {
  /** Stored in the database: stable across releases (script, shots, images, voice, compose…). */
  name: string;
  /** Chinese name for messages; defaults to a known label or the name. */
  label?: string;
  /** Share of the overall progress, relative to the other stages (default 1). */
  weight?: number;
  run(ctx: StageContext): Promise<StageOutputs>;
  /**
   * The schema of what run returns, checked when it returns and when a resume reads it back
   * (set by defineStage in stage.ts; a plain handler has none and is not checked).
   */
  outputSchema?: TObject;
}

/**
 * Where a task's files live beyond this process, when somewhere else than this machine's disk:
 * with the media on an object store, a task started on one worker may be resumed on another
 * machine, which needs what the finished stages wrote. The runner calls these around the stages
 * (src/storage/task-mirror.ts implements them over the media store); absent, the files stay
 * where the stages write them.
 */
export interface TaskFiles {
  /** Before the stages run here: the files the finished stages kept (maybe on another machine). */
  fetch(task: StageTask): Promise<void>;
  /** After a stage, before it is recorded as finished: keep what it wrote. */
  keep(task: StageTask): Promise<void>;
  /** The task left this process, however it ended: its local copies can go. */
  drop(task: StageTask): Promise<void>;
}

/** A progress change, pushed to in-process listeners (a server-sent events route). */
export interface TaskProgressEvent {
  taskId: string;
  workId: number | null;
  kind: string;
  userId: number;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  stage: string;
  progress: number;
  etaSeconds: number | null;
  error: string | null;
}
