import type { FastifyInstance } from 'fastify';
import { ProjectType, videoEndpoints, type WorkResult } from '@kol/shared-sdk/contracts';
import { notFound } from '../../../http/api-error';
import { synthesizeTry } from '../../../media/voice-tries';
import { defineRoute } from '../../define-route';

const WORK_NOT_FOUND = '没有找到这个作品（可能已删除，或不属于你）';

/**
 * The spec's video calls that My copy uses (save_text, update_text, get_works, work_info,
 * delete_work) and the first video ones (gen_video, get_work_result, regenerate_video,
 * tts_audition).
 */
export default async function videoRoutes(app: FastifyInstance) {
  defineRoute(app, videoEndpoints.saveText, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (body.workId !== undefined) {
      const updated = await app.works.update(user.id, body.workId, {
        ...(body.type !== undefined ? { type: body.type } : {}),
        title: body.title,
        text: body.text,
      });
      if (!updated) throw notFound(WORK_NOT_FOUND);
      return { workId: updated.workId };
    }
    const workId = await app.works.create(user.id, {
      type: body.type ?? ProjectType.comics,
      title: body.title,
      text: body.text,
    });
    return { workId };
  });

  defineRoute(app, videoEndpoints.updateText, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const updated = await app.works.update(user.id, body.workId, {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.text !== undefined ? { text: body.text } : {}),
      ...(body.shots !== undefined ? { shots: body.shots } : {}),
    });
    if (!updated) throw notFound(WORK_NOT_FOUND);
    return updated;
  });

  defineRoute(app, videoEndpoints.getWorks, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.works.list(user.id, {
      ...(query.type !== undefined ? { type: query.type } : {}),
      ...(query.flag !== undefined ? { flag: query.flag } : {}),
      ...(query.keyword !== undefined ? { keyword: query.keyword } : {}),
      pageIndex: query.pageIndex ?? 1,
      pageSize: query.pageSize ?? 20,
    });
  });

  defineRoute(app, videoEndpoints.workInfo, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const work = await app.works.find(user.id, query.workId);
    if (!work) throw notFound(WORK_NOT_FOUND);
    return work;
  });

  defineRoute(
    app,
    videoEndpoints.deleteWork,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      if (!(await app.works.delete(user.id, query.workId))) throw notFound(WORK_NOT_FOUND);
      return null;
    },
    // A GET that deletes: it needs the platform header like any state-changing call.
    { stateChanging: true },
  );

  defineRoute(
    app,
    videoEndpoints.updateVideoStatus,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      const updated = await app.works.update(user.id, query.workId, { flag: query.flag });
      if (!updated) throw notFound(WORK_NOT_FOUND);
      return null;
    },
    { stateChanging: true },
  );

  defineRoute(app, videoEndpoints.saveVideoInfo, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const updated = await app.works.update(user.id, body.workId, {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.coverUrl !== undefined ? { coverUrl: body.coverUrl } : {}),
      ...(body.settings !== undefined ? { settings: body.settings } : {}),
    });
    if (!updated) throw notFound(WORK_NOT_FOUND);
    return null;
  });

  defineRoute(app, videoEndpoints.getUserNewestWorks, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const page = await app.works.list(user.id, { pageIndex: 1, pageSize: query.limit ?? 10 });
    return page.items;
  });

  // Ownership, the type's pipeline (400) and the count (402) are checked by the service.
  defineRoute(app, videoEndpoints.genVideo, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.videoTasks.startVideoTask(user.id, body.workId);
  });

  defineRoute(app, videoEndpoints.getWorkResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const work = await app.works.find(user.id, query.workId);
    if (!work) throw notFound(WORK_NOT_FOUND);
    const result = await app.videoTasks.getWorkProgress(user.id, query.workId);
    // A work never generated: nothing is running and nothing is made (the works list shows
    // such a work the same way).
    return (
      result ??
      ({
        workId: work.workId,
        taskId: null,
        state: 'succeeded',
        stage: '',
        progress: 0,
        etaSeconds: null,
        stages: [],
        videoUrl: '',
        srtUrl: '',
        coverUrl: '',
        error: null,
      } satisfies WorkResult)
    );
  });

  defineRoute(
    app,
    videoEndpoints.regenerateVideo,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      // A new task from the first stage: it spends a count like gen_video, since it renders
      // everything again.
      return app.videoTasks.startVideoTask(user.id, query.workId);
    },
    { stateChanging: true },
  );

  defineRoute(app, videoEndpoints.ttsAudition, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return synthesizeTry(app.config.mediaDir, user.id, body);
  });
}
