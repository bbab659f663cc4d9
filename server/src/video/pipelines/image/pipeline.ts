import { Type } from 'typebox';
import type { Shot, VideoSettings } from '@kol/shared-sdk/contracts';
import { roleLook } from '../kit/role-looks';
import { UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageHandler } from '../../../tasks/types';
import { defaultSize } from '../../engine/compose';
import { mediaUrl, num, str, taskFiles, type MediaPipelineOptions } from '../kit/pipeline';
import { drawShotImage, writeWhole } from '../kit/draw';
import { withoutClip } from '../kit/shots';
import type { RoleLook } from '../kit/prompt';
import { imageStyleOf } from '../../library/image-styles';

/** What the image stages need: the media pipeline's options (stores.uploads holds references). */
export type ImagePipelineOptions = MediaPipelineOptions;

/** A role portrait: 3:4, the shape of a character card. */
const PORTRAIT = { width: 1080, height: 1440 };

/** What gen_img and re_gen_img ask an image task (stored as the task's input). */
export interface ImageTaskInput {
  prompt: string;
  /** A role portrait, appended to the role's pictures. */
  roleId?: number;
  /** A picture for a work (its aspect, style and roles)… */
  workId?: number;
  /** …of one of its shots, written back onto the shot. */
  shotIndex?: number;
  imageStyleId?: number;
}

/**
 * One picture as a durable task (gen_img, re_gen_img): a role portrait, a shot of a work
 * (written back onto the work's shots), or a picture of a prompt alone. Drawn by the provider,
 * or the local frame when it fails (`needsRegeneration`, its message in `error`).
 */
export function imagePipeline(options: ImagePipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const roles = options.repos.roles;
  const provider = options.providers.images;

  const image = defineStage({
    name: 'image',
    label: '图片',
    output: Type.Object({
      /** The picture, relative to the media dir. */
      image: Type.String(),
      imageUrl: Type.String(),
      engine: Type.String(),
      needsRegeneration: Type.Boolean(),
      /** The provider's failure (Chinese) when the local frame stands in. */
      providerError: Type.Union([Type.String(), Type.Null()]),
    }),
    async run(ctx) {
      const input = ctx.task.input;
      const userId = ctx.task.userId;
      const prompt = str(input.prompt).trim();
      const roleId = num(input.roleId, 0);
      const workId = num(input.workId, 0);
      const shotIndex = typeof input.shotIndex === 'number' ? input.shotIndex : null;
      let styleId = typeof input.imageStyleId === 'number' ? input.imageStyleId : null;
      let size = defaultSize('9:16');
      let cast: RoleLook[] = [];
      let caption = prompt;
      // Drawn by the local renderer on a picture shown on its own; a work's pictures go into
      // videos, whose captions ffmpeg burns in.
      let localCaption: string | undefined = prompt;
      let drawnShot: Shot | null = null;
      // The local renderer's layout follows the work's shot, as in the video's own pictures.
      let series: { seriesKey: string; shotIndex: number } | null = null;

      const role = roleId ? await roles.findRole(userId, roleId) : null;
      if (roleId && !role) throw new UserInputError('角色不存在或已删除');
      if (role) {
        size = PORTRAIT;
        styleId ??= role.loraId;
        cast = [await roleLook(role, userId, options)];
        // The role is present by its name, so its description, seed and reference apply.
        caption = role.name;
        localCaption = `${role.name}：${role.description}`;
      } else if (workId) {
        const work = await works.find(userId, workId);
        if (!work) throw new UserInputError('作品不存在或已删除');
        const settings: VideoSettings = work.settings;
        localCaption = undefined;
        size = defaultSize(settings.aspect);
        styleId ??= settings.imageStyleId ?? null;
        const records = await roles.listOfWork(userId, workId);
        cast = await Promise.all(records.map((r) => roleLook(r, userId, options)));
        if (shotIndex !== null) {
          const shot = work.shots[shotIndex];
          if (!shot) throw new UserInputError(`第 ${shotIndex + 1} 个分镜不存在`);
          caption = shot.caption;
          drawnShot = shot;
          series = { seriesKey: `work:${workId}`, shotIndex };
        }
      }
      ctx.reportProgress(10);
      const drawn = await drawShotImage(
        provider,
        {
          prompt: prompt || (role ? `${role.name}的角色形象，半身像` : ''),
          caption,
          roles: cast,
          style: imageStyleOf(styleId),
          seedKey: `${ctx.task.id}`,
          ...size,
          ...(localCaption ? { localCaption } : {}),
          ...(series ?? {}),
          ...(role ? { localPortrait: { name: role.name, description: role.description } } : {}),
        },
        ctx.signal,
      );
      const files = taskFiles(options, ctx);
      const relative = files.rel('image.jpg');
      await writeWhole(files.abs(relative), drawn.jpeg);
      const imageUrl = mediaUrl(relative);
      if (role) await roles.appendImage(userId, role.roleId, imageUrl);
      if (drawnShot && shotIndex !== null) {
        const started = drawnShot;
        // Only this shot's picture changes, on the shots as they are now: pictures drawn at
        // the same time and edits made meanwhile all stay. The picture goes to the shot it was
        // drawn for (same caption or same prompt as then); the prompt is written only when
        // nobody changed it since the picture started.
        await works.changeShots(userId, workId, (current) => {
          const shot = current[shotIndex];
          if (
            !shot ||
            (shot.caption !== started.caption && shot.imagePrompt !== started.imagePrompt)
          )
            return null;
          const next = [...current];
          // A new picture: the clip made from the old one goes with it.
          next[shotIndex] = {
            ...withoutClip(shot),
            ...(prompt && shot.imagePrompt === started.imagePrompt ? { imagePrompt: prompt } : {}),
            imageUrl,
            needsRegeneration: drawn.needsRegeneration,
            imageEngine: drawn.engine,
          };
          return next;
        });
      }
      ctx.reportProgress(100);
      return {
        image: relative,
        imageUrl,
        engine: drawn.engine,
        needsRegeneration: drawn.needsRegeneration,
        providerError: drawn.error,
      };
    },
  });
  return [image];
}
