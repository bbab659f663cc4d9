import { readFile } from 'node:fs/promises';
import type { Shot, VideoSettings } from '@kol/shared-sdk/contracts';
import { readCast } from '../../../text/cast';
import { roleLook } from './role-looks';
import { pictureFile } from '../../../uploads/picture-file';
import type { StageContext } from '../../../tasks/types';
import type { Aspect } from '../../engine/captions';
import { defaultSize, mapLimit } from '../../engine/compose';
import {
  checkAborted,
  exists,
  mediaUrl,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline';
import { drawShotImage, writeWhole } from './draw';
import type { ShotImagesOutput } from './outputs';
import { imageStyleOf } from '../../library/image-styles';

/** A shot as the images stage needs it (the comics pipeline's PipelineShot fits). */
export interface ShotToDraw {
  index: number;
  caption: string;
  imagePrompt: string;
  /** An anime storyboard's fields, written onto the work's shot with its picture. */
  speaker?: string;
  line?: string;
  camera?: Shot['camera'];
  scene?: string;
}

/** Whether the picture already on the work's shot is the one this shot keeps. */
export type KeepPicture = (stored: Shot, shot: ShotToDraw) => boolean;

/** A picture the user drew for an unchanged shot with gen_img (the comic clip's rule). */
export const keepGenImgPicture: KeepPicture = (stored, shot) =>
  stored.caption === shot.caption &&
  !stored.needsRegeneration &&
  /\/image\.jpg$/.test(stored.imageUrl);

/** What the stage records of each shot's picture (also read back on a resumed stage). */
export interface ShotImageRecord {
  index: number;
  image: string;
  imageUrl: string;
  engine: string;
  needsRegeneration: boolean;
  error: string | null;
  roleIds: number[];
  /** Taken from the work's shot rather than drawn (its clip may be kept too). */
  kept?: boolean;
}

/**
 * The engine of a picture the video keeps from the work's shot when the shot does not say who
 * drew it (a picture drawn before engines were recorded on the shots).
 */
export const KEPT_PICTURE_ENGINE = '沿用已生成的分镜图片';

/** Providers answer slowly but in parallel; the local renderer is CPU and goes one by one. */
const PROVIDER_CONCURRENCY = 3;

/**
 * The images stage of a work's video: each shot drawn with the work's roles and style by the
 * configured provider, falling back to the local frame for a shot whose picture fails (marked
 * for regeneration, the provider's message kept), so one failed picture never fails the video.
 * A picture the user already drew for an unchanged shot with gen_img is kept. The shots are
 * written back onto the work, so its pages show each picture and offer to redraw marked ones.
 */
export async function drawWorkShots(
  options: MediaPipelineOptions,
  ctx: StageContext,
  shots: readonly ShotToDraw[],
  aspect: Aspect,
  keep: KeepPicture = keepGenImgPicture,
): Promise<ShotImagesOutput> {
  const userId = ctx.task.userId;
  const workId = workIdOf(ctx);
  const files = taskFiles(options, ctx);
  const works = options.repos.works;
  const work = await works.find(userId, workId);
  const settings: Partial<VideoSettings> = work?.settings ?? {};
  const records = await options.repos.roles.listOfWork(userId, workId);
  const cast = await Promise.all(records.map((role) => roleLook(role, userId, options)));
  const style = imageStyleOf(settings.imageStyleId);
  const provider = options.providers.images;
  const size = defaultSize(aspect);
  let done = 0;
  // Who says each quotation of the work's text, read once: a shot with a quotation shows its
  // speaker even when its caption names nobody (“走吧。”她说).
  const quotations = work?.text ? readCast(work.text).quotations : [];
  const speakersOf = (shot: ShotToDraw): string[] => [
    ...(shot.speaker ? [shot.speaker] : []),
    ...quotations
      .filter((q) => q.speaker && q.text.length >= 2 && shot.caption.includes(q.text.slice(0, 12)))
      .map((q) => q.speaker as string),
  ];

  const drawOne = async (shot: ShotToDraw): Promise<ShotImageRecord> => {
    checkAborted(ctx.signal);
    const name = `shot-${String(shot.index).padStart(3, '0')}`;
    const image = files.rel('frames', `${name}.jpg`);
    const sidecar = files.abs(files.rel('frames', `${name}.json`));
    // A picture written whole before a crash or restart is kept with what was recorded of it.
    if ((await exists(files.abs(image))) && (await exists(sidecar))) {
      return JSON.parse(await readFile(sidecar, 'utf8')) as ShotImageRecord;
    }
    const stored = work?.shots[shot.index];
    const kept =
      stored && stored.imageUrl && keep(stored, shot)
        ? await pictureFile(stored.imageUrl, userId, options)
        : null;
    let record: ShotImageRecord;
    if (kept) {
      await writeWhole(files.abs(image), await readFile(kept));
      record = {
        index: shot.index,
        image,
        imageUrl: mediaUrl(image),
        // Who drew it stays known: a kept local card is still a local card.
        engine: stored?.imageEngine ?? KEPT_PICTURE_ENGINE,
        needsRegeneration: false,
        error: null,
        roleIds: stored?.roleIds ?? [],
        kept: true,
      };
    } else {
      const drawn = await drawShotImage(
        provider,
        {
          prompt: shot.imagePrompt,
          caption: shot.caption,
          roles: cast,
          speakers: speakersOf(shot),
          style,
          seedKey: `${ctx.task.id}:${shot.index}`,
          seriesKey: `work:${workId}`,
          shotIndex: shot.index,
          ...size,
        },
        ctx.signal,
      );
      await writeWhole(files.abs(image), drawn.jpeg);
      record = {
        index: shot.index,
        image,
        imageUrl: mediaUrl(image),
        engine: drawn.engine,
        needsRegeneration: drawn.needsRegeneration,
        error: drawn.error,
        roleIds: drawn.present.flatMap((role) => (role.roleId ? [role.roleId] : [])),
      };
    }
    await writeWhole(sidecar, Buffer.from(JSON.stringify(record)));
    done += 1;
    ctx.reportProgress((done / shots.length) * 95);
    return record;
  };

  const drawn = await mapLimit([...shots], provider ? PROVIDER_CONCURRENCY : 1, drawOne);
  if (work)
    await works.changeShots(userId, workId, (current) => withPictures(current, shots, drawn));
  ctx.reportProgress(100);
  return {
    images: drawn.map((record) => record.image),
    shotImages: drawn.map(({ index, imageUrl, engine, needsRegeneration, error, kept }) => ({
      index,
      image: imageUrl,
      engine,
      needsRegeneration,
      error,
      ...(kept ? { kept } : {}),
    })),
  };
}

/**
 * The work's shots as they are now with the render's pictures on them. The shots are read under
 * the row lock, not as the render read them when it started: when they still say what was drawn
 * (or the work had none yet) they become the drawn list, keeping a prompt the person edited
 * meanwhile; when the person changed the captions meanwhile, only the shots that still say what
 * was drawn get their picture, and every edit stays.
 */
export function withPictures(
  current: readonly Shot[],
  shots: readonly ShotToDraw[],
  drawn: readonly ShotImageRecord[],
): Shot[] {
  const picture = (
    record: ShotImageRecord,
  ): Pick<Shot, 'roleIds' | 'imageUrl' | 'needsRegeneration' | 'imageEngine'> => ({
    roleIds: record.roleIds,
    imageUrl: record.imageUrl,
    needsRegeneration: record.needsRegeneration,
    // A kept picture of unknown engine leaves the shot's field absent (as it was).
    ...(record.engine !== KEPT_PICTURE_ENGINE ? { imageEngine: record.engine } : {}),
  });
  const sameCaptions =
    current.length === 0 ||
    (current.length === shots.length && shots.every((s, i) => current[i]?.caption === s.caption));
  // A clip is made from its picture: it stays with a kept picture, and goes with a new one.
  const clipOf = (stored: Shot | undefined, record: ShotImageRecord): Partial<Shot> =>
    record.kept && stored
      ? {
          ...(stored.clipUrl !== undefined ? { clipUrl: stored.clipUrl } : {}),
          ...(stored.clipEngine !== undefined ? { clipEngine: stored.clipEngine } : {}),
          ...(stored.clipError !== undefined ? { clipError: stored.clipError } : {}),
        }
      : {};
  if (!sameCaptions) {
    return current.map((stored, i) => {
      const k = shots.findIndex((s) => s.index === stored.index && s.caption === stored.caption);
      const record = k >= 0 ? drawn[k] : undefined;
      return record && i === stored.index
        ? { ...withoutClip(stored), ...picture(record), ...clipOf(stored, record) }
        : stored;
    });
  }
  return shots.map((shot, i) => {
    const record = drawn[i] as ShotImageRecord;
    const old = current[i];
    return {
      index: shot.index,
      caption: shot.caption,
      imagePrompt: old?.imagePrompt || shot.imagePrompt,
      // The voice stage comes after; a stored shot of the same caption keeps its audio.
      audioUrl: old?.caption === shot.caption ? old.audioUrl : '',
      durationMs: old?.caption === shot.caption ? old.durationMs : 0,
      ...picture(record),
      ...storyboardFields(shot),
      ...(old?.caption === shot.caption ? clipOf(old, record) : {}),
    };
  });
}

/** A shot without its clip's fields (its picture changed, or a new clip replaces them). */
export const withoutClip = ({ clipUrl: _u, clipEngine: _e, clipError: _r, ...rest }: Shot): Shot =>
  rest;

/** The storyboard fields a shot carries (an anime short's), and nothing for other types. */
function storyboardFields(shot: ShotToDraw): Partial<Shot> {
  const fields: Partial<Shot> = {};
  if (shot.speaker !== undefined) fields.speaker = shot.speaker;
  if (shot.line !== undefined) fields.line = shot.line;
  if (shot.camera !== undefined) fields.camera = shot.camera;
  if (shot.scene !== undefined) fields.scene = shot.scene;
  return fields;
}
