import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CAPTION_STYLES, type CaptionStyle } from '@kol/shared-sdk/contracts';
import { cleanScript } from '@kol/shared-sdk/text';
import type { Repositories } from '../../../repositories';
import { keyOf, type MediaStores } from '../../../storage';
import type { Providers } from '../../../providers';
import { StageError, UserInputError } from '../../../tasks/errors';
import type { StageContext } from '../../../tasks/types';
import type { Aspect } from '../../engine/captions';
import { defaultSize, type ComposeResult } from '../../engine/compose';

/**
 * What every pipeline of src/video/pipelines needs: where files go and the checks between
 * stages. A pipeline is a list of stages declared with the schema of their output (defineStage,
 * tasks/stage.ts; a later stage reads an earlier one's output by reference, `script.output(ctx)`),
 * built by a function taking these options.
 */
export interface MediaPipelineOptions {
  /** The repositories (app.repos in the server; a worker builds its own). */
  repos: Repositories;
  /**
   * `<DATA_DIR>/media`: outputs go to `<mediaDir>/<userId>/<taskId>/`. With an object store
   * (MEDIA_STORE=s3) this process's cache folder: the runner stores a task's folder after each
   * stage and fetches it before a resume (src/storage/task-mirror.ts).
   */
  mediaDir: string;
  /**
   * Where the users' uploads (`/uploads/<name>`) and other tasks' media are read from:
   * `stores.uploads.cached(name)` gives a local file of an upload on any machine (src/storage).
   */
  stores: MediaStores;
  /** Output size instead of the aspect's full size (tests render small). */
  renderSize?: { width: number; height: number };
  /** Percent of the aspect's full size when no `renderSize` is given (config.renderPercent). */
  renderPercent?: number;
  /** The outside services (src/providers), null where not configured: the offline ways then. */
  providers: Providers;
}

/**
 * The size a composed video is rendered at: `renderSize` when given, else the aspect's full size
 * (1080x1920 / 1920x1080) times `renderPercent`, rounded to even sides (x264's 4:2:0 needs them).
 */
export function outputSize(
  options: Pick<MediaPipelineOptions, 'renderSize' | 'renderPercent'>,
  aspect: Aspect,
): { width: number; height: number } {
  if (options.renderSize) return options.renderSize;
  const full = defaultSize(aspect);
  const percent = options.renderPercent ?? 100;
  if (percent === 100) return full;
  const even = (side: number) => Math.max(2, Math.round((side * percent) / 200) * 2);
  return { width: even(full.width), height: even(full.height) };
}

/** The URL of a file of the media dir (the `/media/*` route serves it to its owner). */
export const mediaUrl = (relative: string): string =>
  `/media/${relative.split(path.sep).map(encodeURIComponent).join('/')}`;

/** Paths of a task's files: stored relative to the media dir, so the data dir can move. */
export function taskFiles(options: MediaPipelineOptions, ctx: StageContext) {
  const rel = (...parts: string[]) => path.join(String(ctx.task.userId), ctx.task.id, ...parts);
  const abs = (relative: string) => path.join(options.mediaDir, relative);
  return {
    rel,
    abs,
    /** A file of the media dir back to its stored (relative) form. */
    relOf: (absolute: string) => path.relative(options.mediaDir, absolute),
  };
}

/**
 * A file of the media dir that another task wrote (a cut video's segment voices, the pictures
 * of the work's last video), as a local file of this process: in place on the local store, a
 * copy from the object store on a worker of another machine. Null when it is gone.
 */
export function otherTaskFile(options: MediaPipelineOptions, relative: string) {
  return options.stores.media.cached(keyOf(relative));
}

/** The work id of a task that must have one (video and merge tasks). */
export function workIdOf(ctx: StageContext): number {
  if (ctx.task.workId === null) throw new StageError('任务缺少作品，请重新生成');
  return ctx.task.workId;
}

export const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : fallback;
export const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

export const exists = async (file: string): Promise<boolean> =>
  (await stat(file).catch(() => null))?.isFile() === true;

export function checkAborted(signal: AbortSignal): void {
  // The runner records why (cancel, shutdown); this only stops the work early.
  if (signal.aborted) throw new Error(`aborted: ${String(signal.reason)}`);
}

/** The work's text made speakable (the SDK's, which the pages estimate lengths with). */
export { cleanScript };

/** Refuses a text with nothing to say (a user error: the count is not given back). */
export function requireSpeakable(text: string, field = '文案'): string {
  const clean = cleanScript(text);
  if (!/[\p{L}\p{N}]/u.test(clean)) throw new UserInputError(`「${field}」为空，请先填写${field}`);
  return clean;
}

/** Parallel part encodes within one task: tasks already run one per core. */
export const partConcurrency = () => Math.max(1, Math.min(4, os.availableParallelism()));

/** The outputs every video stage ends with (get_work_result reads the URLs). */
export function videoOutputs(options: MediaPipelineOptions, result: ComposeResult) {
  const rel = (file: string) => path.relative(options.mediaDir, file);
  return {
    video: rel(result.videoPath),
    srt: rel(result.srtPath),
    cover: rel(result.coverPath),
    videoDurationMs: result.durationMs,
    videoUrl: mediaUrl(rel(result.videoPath)),
    srtUrl: mediaUrl(rel(result.srtPath)),
    coverUrl: mediaUrl(rel(result.coverPath)),
  };
}

/** The caption look the work asks for (read when its video is composed). */
export async function captionStyleOf(
  options: MediaPipelineOptions,
  ctx: StageContext,
): Promise<CaptionStyle> {
  if (ctx.task.workId === null) return 'classic';
  const work = await options.repos.works.find(ctx.task.userId, ctx.task.workId);
  const style: unknown = work?.settings.captionStyle;
  return (CAPTION_STYLES as readonly unknown[]).includes(style)
    ? (style as CaptionStyle)
    : 'classic';
}
