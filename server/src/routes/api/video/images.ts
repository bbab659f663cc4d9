import type { FastifyInstance } from 'fastify';
import { ProjectType, videoEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, notFound } from '../../../http/api-error';
import type { ClipTaskInput } from '../../../video/pipelines/clip/pipeline';
import type { ImageTaskInput } from '../../../video/pipelines/image/pipeline';
import { imageStyleOf } from '../../../video/library/image-styles';
import { ownRole } from '../../../roles/service';
import { defineRoute } from '../../define-route';

/** Video types whose shots are drawn pictures (the ones gen_img draws for). */
const DRAWN_TYPES: ReadonlySet<number> = new Set([
  ProjectType.comics,
  ProjectType.comicsOverseas,
  ProjectType.animeShorts,
]);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * gen_img starts one picture as a durable image task (no count spent): a shot of a work (the
 * picture goes onto the shot), a role portrait, or a prompt alone; img_result reads it.
 */
export default async function videoImageRoutes(app: FastifyInstance) {
  defineRoute(app, videoEndpoints.genImg, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (body.imageStyleId !== undefined && !imageStyleOf(body.imageStyleId)) {
      throw badRequest('「画风」不存在');
    }
    if (body.shotIndex !== undefined && body.workId === undefined) {
      throw badRequest('「分镜序号」需要和作品一起给出');
    }
    const role = body.roleId !== undefined ? await ownRole(app, user.id, body.roleId) : null;
    let work = null;
    if (body.workId !== undefined) {
      work = await app.works.find(user.id, body.workId);
      if (!work) throw notFound('「作品」不存在或不属于你');
      if (!DRAWN_TYPES.has(work.type)) throw badRequest('该视频类型的画面不是生成的图片');
      if (body.shotIndex !== undefined && !work.shots[body.shotIndex]) {
        throw badRequest(`第 ${body.shotIndex + 1} 个分镜不存在`);
      }
    }
    const input: ImageTaskInput = {
      prompt: body.prompt,
      ...(role ? { roleId: role.roleId } : {}),
      ...(work ? { workId: work.workId } : {}),
      ...(body.shotIndex !== undefined ? { shotIndex: body.shotIndex } : {}),
      ...(body.imageStyleId !== undefined ? { imageStyleId: body.imageStyleId } : {}),
    };
    return app.videoTasks.startTask({
      userId: user.id,
      workId: work?.workId ?? role?.workId ?? null,
      type: work?.type ?? role?.type ?? ProjectType.comics,
      kind: 'image',
      input: { ...input },
    });
  });

  // 重新生成动态镜头: the shot's picture as it is now, brought to motion again (no count).
  defineRoute(app, videoEndpoints.genClip, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (!app.providers.videos) {
      throw badRequest(
        '未配置视频服务，无法生成动态镜头（管理员可设置 VIDEO_BASE_URL 或 COMFYUI_VIDEO_URL）',
      );
    }
    const work = await app.works.find(user.id, body.workId);
    if (!work) throw notFound('「作品」不存在或不属于你');
    if (!DRAWN_TYPES.has(work.type)) throw badRequest('该视频类型的画面不是生成的图片');
    const shot = work.shots[body.shotIndex];
    if (!shot) throw badRequest(`第 ${body.shotIndex + 1} 个分镜不存在`);
    if (!shot.imageUrl) throw badRequest(`第 ${body.shotIndex + 1} 个分镜还没有画面，请先生成画面`);
    const input: ClipTaskInput = { workId: work.workId, shotIndex: body.shotIndex };
    return app.videoTasks.startTask({
      userId: user.id,
      workId: work.workId,
      type: work.type,
      kind: 'clip',
      input: { ...input },
    });
  });

  defineRoute(app, videoEndpoints.clipResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const task = await app.videoTasks.findTask(user.id, query.taskId);
    if (!task || task.kind !== 'clip') throw notFound('「动态镜头任务」不存在或不属于你');
    return {
      taskId: task.id,
      state: task.state,
      clipUrl: text(task.outputs.clipUrl),
      engine: text(task.outputs.engine),
      error: task.error,
    };
  });

  defineRoute(app, videoEndpoints.imgResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const task = await app.videoTasks.findTask(user.id, query.taskId);
    if (!task || task.kind !== 'image') throw notFound('「图片任务」不存在或不属于你');
    const providerError = text(task.outputs.providerError);
    return {
      taskId: task.id,
      state: task.state,
      imageUrl: text(task.outputs.imageUrl),
      engine: text(task.outputs.engine),
      // The task's failure, or the provider's when the local frame stood in for it.
      error: task.error ?? (providerError || null),
    };
  });
}
