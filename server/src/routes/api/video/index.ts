import type { FastifyInstance } from 'fastify';
import {
  ProjectType,
  overseasTextRefusal,
  videoEndpoints,
  type WorkDetail,
} from '@kol/shared-sdk/contracts';
import { badRequest, notFound, staleRevision } from '../../../http/api-error';
import type { SaveResult } from '../../../repositories/works';
import { synthesizeTry } from '../../../video/voice-tries';
import { flaggedTermsMessage } from '../../../video/library/vocabulary';
import { defineRoute } from '../../define-route';

/** Every text of a work that ends up spoken or shown: the text, the scenes' lines, the template. */
function spokenTextsOf(work: WorkDetail): string[] {
  const settings = work.settings;
  return [
    work.title,
    work.text,
    ...(settings.scenes ?? []).flatMap((scene) => scene.lines.map((line) => line.text)),
    ...Object.values(settings.templateFields ?? {}),
    settings.callToAction ?? '',
  ];
}

const WORK_NOT_FOUND = '没有找到这个作品（可能已删除，或不属于你）';

/** The saved work, or the refusal of a save based on an older revision or of no such work. */
function savedWork(result: SaveResult): WorkDetail {
  if (!result) throw notFound(WORK_NOT_FOUND);
  if ('stale' in result) throw staleRevision();
  return result.saved;
}

/**
 * The spec's video calls that My copy uses (save_text, update_text, get_works, work_info,
 * delete_work) and the first video ones (gen_video, get_work_result, regenerate_video,
 * tts_audition).
 */
export default async function videoRoutes(app: FastifyInstance) {
  defineRoute(app, videoEndpoints.saveText, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (body.workId !== undefined) {
      // Saving over a stored work is an edit like update_text: based on a revision.
      if (body.revision === undefined) throw badRequest('保存已有作品时请提供「修订号」');
      const updated = savedWork(
        await app.works.saveEdit(user.id, body.workId, body.revision, {
          ...(body.type !== undefined ? { type: body.type } : {}),
          title: body.title,
          text: body.text,
        }),
      );
      return { workId: updated.workId, revision: updated.revision };
    }
    const workId = await app.works.create(user.id, {
      type: body.type ?? ProjectType.comics,
      title: body.title,
      text: body.text,
    });
    return { workId, revision: 1 };
  });

  // The script of a new video work, written by the writing engine from the source text: the
  // work keeps the source until the page saves the script over it (update_text), and the
  // script streams like any writing task (gen_stream / gen_result with the answered taskId).
  defineRoute(app, videoEndpoints.generate, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, body.type);
    const source = body.sourceText.trim();
    if (!source) throw badRequest('「原文」不能为空');
    const title = body.title?.trim() || `${source.replace(/\s+/g, ' ').slice(0, 20)}…`;
    const workId = await app.works.create(user.id, { type: body.type, title, text: source });
    if (body.settings) await app.works.update(user.id, workId, { settings: body.settings });
    const taskId = await app.writing.generate(
      user.id,
      { sourceText: source, kind: 'narration' },
      'generate',
    );
    return { workId, taskId };
  });

  defineRoute(app, videoEndpoints.updateText, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return savedWork(
      await app.works.saveEdit(user.id, body.workId, body.revision, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.text !== undefined ? { text: body.text } : {}),
        ...(body.shots !== undefined ? { shots: body.shots } : {}),
      }),
    );
  });

  defineRoute(app, videoEndpoints.getWorks, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.works.list(user.id, {
      ...(query.type !== undefined ? { type: query.type } : {}),
      ...(query.flag !== undefined ? { flag: query.flag } : {}),
      ...(query.keyword !== undefined ? { keyword: query.keyword } : {}),
      ...(query.withText ? { withText: true } : {}),
      ...(query.seriesId !== undefined ? { seriesId: query.seriesId } : {}),
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
    const updated = savedWork(
      await app.works.saveEdit(user.id, body.workId, body.revision, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.coverUrl !== undefined ? { coverUrl: body.coverUrl } : {}),
        ...(body.settings !== undefined ? { settings: body.settings } : {}),
      }),
    );
    return { revision: updated.revision };
  });

  // The count spent to start it is not given back (see VideoTaskService.cancel).
  defineRoute(app, videoEndpoints.cancelTask, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.cancel(user.id, body.taskId);
    return null;
  });

  defineRoute(app, videoEndpoints.getUserNewestWorks, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const page = await app.works.list(user.id, { pageIndex: 1, pageSize: query.limit ?? 10 });
    return page.items;
  });

  /**
   * The words a platform may flag are refused before anything is spent: the user changes them
   * (each with its suggested replacement) and nothing of the work is lost.
   */
  async function refuseFlaggedWords(userId: number, workId: number) {
    const work = await app.works.find(userId, workId);
    if (!work) throw notFound(WORK_NOT_FOUND);
    const refusal = flaggedTermsMessage(spokenTextsOf(work).join('\n'), '文案', '生成');
    if (refusal) throw badRequest(refusal);
    // An overseas decompression speaks its text in English: a Chinese one is refused before
    // anything is spent, whatever client asks (the page says it first and offers translation).
    if (work.type === ProjectType.decompressionOverseas) {
      const overseas = overseasTextRefusal(work.text, app.providers.chat !== null);
      if (overseas) throw badRequest(overseas);
    }
  }

  // Ownership, the type's pipeline (400) and the count (402) are checked by the service.
  defineRoute(app, videoEndpoints.genVideo, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await refuseFlaggedWords(user.id, body.workId);
    return app.videoTasks.startVideoTask(user.id, body.workId);
  });

  defineRoute(app, videoEndpoints.getWorkResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (query.taskId !== undefined) {
      // Another user's task, or no task at all: not found alike.
      const result = await app.videoTasks.getTaskProgress(user.id, query.taskId);
      if (!result) throw notFound('任务不存在');
      return result;
    }
    if (query.workId === undefined) throw badRequest('请提供「作品」或「任务编号」');
    const work = await app.works.find(user.id, query.workId);
    if (!work) throw notFound(WORK_NOT_FOUND);
    return app.videoTasks.getWorkProgress(user.id, query.workId);
  });

  defineRoute(
    app,
    videoEndpoints.regenerateVideo,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      // A new task from the first stage: it spends a count like gen_video, since it renders
      // everything again.
      await refuseFlaggedWords(user.id, query.workId);
      return app.videoTasks.startVideoTask(user.id, query.workId);
    },
    { stateChanging: true },
  );

  defineRoute(app, videoEndpoints.ttsAudition, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return synthesizeTry(
      app.providers.speech,
      { store: app.stores.media, dir: app.config.mediaDir },
      user.id,
      body,
    );
  });
}
