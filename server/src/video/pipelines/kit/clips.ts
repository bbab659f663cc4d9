import { readFile, rm } from 'node:fs/promises';
import { Type, type Static } from 'typebox';
import type { Shot } from '@kol/shared-sdk/contracts';
import { ProviderError } from '../../../providers/errors';
import type { VideoProvider } from '../../../providers/videos/types';
import { clipFormat } from '../../../providers/videos/types';
import { defineStage } from '../../../tasks/stage';
import type { StageContext } from '../../../tasks/types';
import type { Aspect } from '../../engine/captions';
import { defaultSize, mapLimit, MOTIONS, type Motion } from '../../engine/compose';
import { probeWithFfmpeg } from '../../engine/ffmpeg';
import { imageStyleOf, type ImageStyle } from '../../library/image-styles';
import { clipFile } from '../../../uploads/picture-file';
import { writeWhole } from './draw';
import type { ShotImagesOutput, StageRef } from './outputs';
import {
  checkAborted,
  exists,
  mediaUrl,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline';
import { buildShotPrompt, type RoleLook } from './prompt';
import { withoutClip } from './shots';
import { roleLook } from './role-looks';

/** A shot as the clips stage needs it (the anime storyboard's and the comic's shots fit). */
export interface ShotToAnimate {
  index: number;
  caption: string;
  imagePrompt: string;
  speaker?: string;
  camera?: Shot['camera'];
}

/** What the stage records of each shot's clip (also read back on a resumed stage). */
export const ShotClipSchema = Type.Object({
  index: Type.Number(),
  /** The clip, relative to the media dir; null: the still stands in. */
  clip: Type.Union([Type.String(), Type.Null()]),
  clipUrl: Type.String(),
  /** The service that made (or failed) it; null when it was not asked (a fallen-back picture). */
  engine: Type.Union([Type.String(), Type.Null()]),
  /** The service's failure (Chinese, naming it): the still stands in and the shot is marked. */
  error: Type.Union([Type.String(), Type.Null()]),
  /** The clip on the work's shot was kept: its picture did not change, nothing was paid. */
  kept: Type.Optional(Type.Boolean()),
});
export type ShotClip = Static<typeof ShotClipSchema>;

export const ShotClipsSchema = Type.Object({
  /** The video service of this render; null: motion off or not configured (stills only). */
  engine: Type.Union([Type.String(), Type.Null()]),
  clips: Type.Array(ShotClipSchema),
});
export type ShotClipsOutput = Static<typeof ShotClipsSchema>;

/** How the still of a shot would move, said to the video service so the clip moves alike. */
const CAMERA_MOVES: Record<Motion, string> = {
  'zoom-in': '镜头缓慢推近',
  'pan-right': '镜头缓慢向右横移',
  'zoom-out': '镜头缓慢拉远',
  'pan-left': '镜头缓慢向左横移',
};

/** The camera hint of a shot: its size (景别) and the move its still would have made. */
export function cameraHint(shot: Pick<ShotToAnimate, 'index' | 'camera'>): string {
  const move = CAMERA_MOVES[MOTIONS[shot.index % MOTIONS.length] ?? 'zoom-in'];
  return shot.camera ? `${shot.camera}，${move}` : move;
}

/**
 * One shot's clip from its picture, written whole to `clipPath`: null error when it was made,
 * else the service's failure (Chinese, naming it), and nothing written. A cancel is rethrown.
 */
export async function makeClip(
  provider: VideoProvider,
  job: {
    shot: ShotToAnimate;
    imagePath: string;
    clipPath: string;
    durationMs: number;
    aspect: Aspect;
    cast: readonly RoleLook[];
    style: ImageStyle | null;
    workId: number;
    signal: AbortSignal;
  },
): Promise<{ error: string | null }> {
  const { shot } = job;
  const built = buildShotPrompt({
    prompt: shot.imagePrompt,
    caption: shot.caption,
    roles: job.cast,
    speakers: shot.speaker ? [shot.speaker] : [],
    style: job.style,
    seedKey: `work:${job.workId}:${shot.index}`,
  });
  try {
    const bytes = await provider.animate(
      {
        prompt: `${built.prompt}\n镜头：${cameraHint(shot)}`,
        negativePrompt: built.negativePrompt,
        imagePath: job.imagePath,
        ...defaultSize(job.aspect),
        durationMs: job.durationMs,
        seed: built.seed,
      },
      job.signal,
    );
    if (!clipFormat(bytes)) {
      throw new ProviderError('malformed', `视频服务 ${provider.label} 返回的内容不是视频`);
    }
    await writeWhole(job.clipPath, bytes);
    // A clip ffmpeg cannot read would fail the compose: it is the service's failure here.
    const probed = await probeWithFfmpeg(job.clipPath).catch(() => null);
    if (!probed?.video || !probed.durationMs) {
      await rm(job.clipPath, { force: true });
      throw new ProviderError('malformed', `视频服务 ${provider.label} 返回的视频无法解码`);
    }
    return { error: null };
  } catch (error) {
    if (job.signal.aborted) throw job.signal.reason ?? error;
    return {
      error:
        error instanceof ProviderError
          ? error.message
          : `视频服务 ${provider.label} 出错（${error instanceof Error ? error.message : String(error)}）`,
    };
  }
}

/** Services answer slowly but in parallel; more at once mostly waits in their queue. */
const CLIP_CONCURRENCY = 2;

/** Whether a render of this work moves: a service is configured and the type wants motion. */
export function wantsMotion(
  provider: VideoProvider | null,
  motion: boolean | undefined,
  byDefault: boolean,
): provider is VideoProvider {
  return provider !== null && (motion ?? byDefault);
}

/**
 * The clips stage of a work's video: each shot's picture brought to motion by the video
 * service, the clip as long as the shot (the compose trims it, or holds its last frame). A
 * shot the service fails keeps its still with pan and zoom, marked with the service's message,
 * so motion never fails a video. A clip is written whole with a sidecar before the next one,
 * so a resumed task pays for none twice; a clip already on the work's shot is kept when the
 * shot's picture was kept (nothing about it changed). The clips are written onto the work's
 * shots, where the pages show them and offer to make a failed one again.
 */
export async function animateWorkShots(
  options: MediaPipelineOptions,
  ctx: StageContext,
  input: {
    shots: readonly ShotToAnimate[];
    images: ShotImagesOutput;
    durations: readonly number[];
    aspect: Aspect;
    /** Whether this work moves (wantsMotion's answer for its type and settings). */
    motion: boolean;
  },
): Promise<ShotClipsOutput> {
  const provider = options.providers.videos;
  if (!input.motion || !provider) {
    ctx.reportProgress(100);
    return { engine: null, clips: [] };
  }
  const userId = ctx.task.userId;
  const workId = workIdOf(ctx);
  const files = taskFiles(options, ctx);
  const work = await options.repos.works.find(userId, workId);
  const records = await options.repos.roles.listOfWork(userId, workId);
  const cast = await Promise.all(records.map((role) => roleLook(role, userId, options)));
  const style = imageStyleOf(work?.settings.imageStyleId);
  let done = 0;

  const animateOne = async (shot: ShotToAnimate, i: number): Promise<ShotClip> => {
    checkAborted(ctx.signal);
    const picture = input.images.shotImages[i];
    const image = input.images.images[i];
    const name = `shot-${String(shot.index).padStart(3, '0')}`;
    const clip = files.rel('clips', `${name}.mp4`);
    const sidecar = files.abs(files.rel('clips', `${name}.json`));
    if (await exists(sidecar)) return JSON.parse(await readFile(sidecar, 'utf8')) as ShotClip;
    let record: ShotClip;
    const stored = work?.shots[shot.index];
    const keptClip =
      picture?.kept && stored?.caption === shot.caption && stored.clipUrl && !stored.clipError
        ? await clipFile(stored.clipUrl, userId, options)
        : null;
    if (!image || !picture || picture.needsRegeneration) {
      // A picture that fell back is redrawn first: bringing a stand-in card to motion would be
      // paid for nothing. Nothing to mark either: the picture's own problem is reported.
      record = { index: shot.index, clip: null, clipUrl: '', engine: null, error: null };
    } else if (keptClip) {
      await writeWhole(files.abs(clip), await readFile(keptClip));
      record = {
        index: shot.index,
        clip,
        clipUrl: mediaUrl(clip),
        engine: stored?.clipEngine ?? provider.label,
        error: null,
        kept: true,
      };
    } else {
      const made = await makeClip(provider, {
        shot,
        imagePath: files.abs(image),
        clipPath: files.abs(clip),
        durationMs: input.durations[i] ?? 0,
        aspect: input.aspect,
        cast,
        style,
        workId,
        signal: ctx.signal,
      });
      record = {
        index: shot.index,
        clip: made.error ? null : clip,
        clipUrl: made.error ? '' : mediaUrl(clip),
        engine: provider.label,
        error: made.error,
      };
    }
    await writeWhole(sidecar, Buffer.from(JSON.stringify(record)));
    done += 1;
    ctx.reportProgress((done / input.shots.length) * 95);
    return record;
  };

  const clips = await mapLimit([...input.shots], CLIP_CONCURRENCY, animateOne);
  if (work) {
    await options.repos.works.changeShots(userId, workId, (current) =>
      withClips(current, input.shots, clips),
    );
  }
  ctx.reportProgress(100);
  return { engine: provider.label, clips };
}

/**
 * The work's shots with the render's clips on them: only a shot that still says what was
 * animated (same index and caption) gets its clip; every edit made meanwhile stays. Null when
 * nothing changes (the row is not written).
 */
export function withClips(
  current: readonly Shot[],
  shots: readonly ShotToAnimate[],
  clips: readonly ShotClip[],
): Shot[] | null {
  let changed = false;
  const next = current.map((stored) => {
    const k = shots.findIndex((s) => s.index === stored.index && s.caption === stored.caption);
    const record = k >= 0 ? clips[k] : undefined;
    if (!record || record.engine === null) return stored;
    const rest = withoutClip(stored);
    const shot: Shot = record.clip
      ? { ...rest, clipUrl: record.clipUrl, clipEngine: record.engine }
      : { ...rest, clipEngine: record.engine, clipError: (record.error ?? '').slice(0, 500) };
    if (JSON.stringify(shot) !== JSON.stringify(stored)) changed = true;
    return shot;
  });
  return changed ? next : null;
}

/**
 * The `clips` stage of the pictured pipelines (anime, comics): after the voice (the shots'
 * lengths are known), before the compose (kit/stills-compose.ts shows a clip instead of its
 * still). The script stage snapshots whether the work moves, so a resumed task does what was
 * asked at its start.
 */
export function clipsStage(
  options: MediaPipelineOptions,
  from: {
    script: StageRef<{ aspect: Aspect; motion?: boolean }>;
    shots: (ctx: StageContext) => readonly ShotToAnimate[];
    images: StageRef<ShotImagesOutput>;
    voice: StageRef<{ shotDurations: number[] }>;
  },
) {
  return defineStage({
    name: 'clips',
    label: '动态镜头',
    weight: 3,
    output: ShotClipsSchema,
    async run(ctx) {
      const script = from.script.output(ctx);
      return animateWorkShots(options, ctx, {
        shots: from.shots(ctx),
        images: from.images.output(ctx),
        durations: from.voice.output(ctx).shotDurations,
        aspect: script.aspect,
        motion: script.motion === true,
      });
    },
  });
}
