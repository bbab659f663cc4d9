import { Type } from 'typebox';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageHandler } from '../../../tasks/types';
import { pictureFile } from '../../../uploads/picture-file';
import { imageStyleOf } from '../../library/image-styles';
import { makeClip } from '../kit/clips';
import { mediaUrl, num, taskFiles, type MediaPipelineOptions } from '../kit/pipeline';
import { roleLook } from '../kit/role-looks';
import { withoutClip } from '../kit/shots';

/** What gen_clip asks a clip task (stored as the task's input). */
export interface ClipTaskInput {
  workId: number;
  shotIndex: number;
}

/** A shot never voiced yet (no length recorded) is asked for this long; the video trims it. */
const UNVOICED_SHOT_MS = 4_000;

/**
 * One shot's clip made again (gen_clip, 重新生成动态镜头): the shot's picture as it is now
 * brought to motion by the video service and written onto the shot, for the next render of
 * the work to show (it keeps a clip whose picture it keeps). Unlike a render, a failure here
 * fails the task with the service's message: this task exists only to make that clip.
 */
export function clipPipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const clip = defineStage({
    name: 'clip',
    label: '动态镜头',
    output: Type.Object({
      clip: Type.String(),
      clipUrl: Type.String(),
      engine: Type.String(),
    }),
    async run(ctx) {
      const provider = options.providers.videos;
      if (!provider) {
        throw new UserInputError(
          '未配置视频服务，无法生成动态镜头（管理员可设置 VIDEO_BASE_URL 或 COMFYUI_VIDEO_URL）',
        );
      }
      const userId = ctx.task.userId;
      const workId = num(ctx.task.input.workId, 0);
      const shotIndex = num(ctx.task.input.shotIndex, -1);
      const work = await works.find(userId, workId);
      if (!work) throw new UserInputError('作品不存在或已删除');
      const shot = work.shots[shotIndex];
      if (!shot) throw new UserInputError(`第 ${shotIndex + 1} 个分镜不存在`);
      const picture = shot.imageUrl ? await pictureFile(shot.imageUrl, userId, options) : null;
      if (!picture) throw new UserInputError(`第 ${shotIndex + 1} 个分镜还没有画面，请先生成画面`);
      const records = await options.repos.roles.listOfWork(userId, workId);
      const cast = await Promise.all(records.map((role) => roleLook(role, userId, options)));
      const files = taskFiles(options, ctx);
      const relative = files.rel('clip.mp4');
      ctx.reportProgress(5);
      const made = await makeClip(provider, {
        shot: {
          index: shot.index,
          caption: shot.caption,
          imagePrompt: shot.imagePrompt,
          ...(shot.speaker ? { speaker: shot.speaker } : {}),
          ...(shot.camera ? { camera: shot.camera } : {}),
        },
        imagePath: picture,
        clipPath: files.abs(relative),
        durationMs: shot.durationMs || UNVOICED_SHOT_MS,
        aspect: work.settings.aspect,
        cast,
        style: imageStyleOf(work.settings.imageStyleId),
        workId,
        signal: ctx.signal,
      });
      const clipUrl = mediaUrl(relative);
      // Written onto the shot only while it shows the picture the clip was made from.
      await works.changeShots(userId, workId, (current) => {
        const now = current[shotIndex];
        if (!now || now.imageUrl !== shot.imageUrl) return null;
        const next = [...current];
        next[shotIndex] = made.error
          ? { ...withoutClip(now), clipEngine: provider.label, clipError: made.error.slice(0, 500) }
          : { ...withoutClip(now), clipUrl, clipEngine: provider.label };
        return next;
      });
      if (made.error) throw new StageError(made.error, { provider: provider.label });
      ctx.reportProgress(100);
      return { clip: relative, clipUrl, engine: provider.label };
    },
  });
  return [clip];
}
