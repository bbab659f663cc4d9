import type { FastifyInstance } from 'fastify';
import { cutVideoEndpoints, type CutVideo } from '@kol/shared-sdk/contracts';
import { badRequest } from '../../../http/api-error';
import {
  pathSegments,
  resolveInside,
  sendFile,
  sendFileNotFound,
} from '../../../http/static-files';
import { categoryNames } from '../../../video/library/categories';
import {
  BUILTIN_MATERIALS,
  MATERIAL_TAGS,
  MATERIAL_URL_PREFIX,
  UPLOAD_TAG,
  ensureMaterial,
  listMaterials,
  materialFileNames,
  materialsDir,
} from '../../../video/library/materials';
import { mediaUrl } from '../../../video/pipelines/kit/pipeline';
import type { CutVideoRecord } from '../../../repositories/cut-videos';
import { createCutVideoService } from '../../../video/cut-videos';
import { defineRoute } from '../../define-route';

/** The built-in loops are the same for everyone and change only with a release. */
const CACHE_LIBRARY = 'private, max-age=86400';

const toApi = (cut: CutVideoRecord): CutVideo => ({
  workId: cut.workId,
  voiceId: cut.voiceId,
  musicId: cut.musicId,
  musicVolume: cut.musicVolume,
  finished: cut.finished,
  revision: cut.revision,
  segments: cut.segments.map((s, index) => ({
    index,
    text: s.text,
    materialId: s.materialId,
    startMs: s.startMs,
    endMs: s.endMs,
    audioUrl: s.audio ? mediaUrl(s.audio) : '',
    audioDurationMs: s.audioDurationMs,
    ...(s.imageUrl ? { imageUrl: s.imageUrl } : {}),
    ...(s.voiceId ? { voiceId: s.voiceId } : {}),
    ...(s.speed !== undefined ? { speed: s.speed } : {}),
    ...(s.speaker ? { speaker: s.speaker } : {}),
  })),
});

/**
 * The cut-video editor of a work: its segments (text, picture, audio), the material library
 * they pick from, their speech (generate_cut_tts, a 'cut-speech' task) and end_cut_video, after
 * which /api/video_edit/send_merge_request renders them.
 */
export default async function cutVideoRoutes(app: FastifyInstance) {
  const cuts = createCutVideoService({
    repos: app.repos,
    speech: app.providers.speech,
    stores: app.stores,
  });

  defineRoute(app, cutVideoEndpoints.getCutVideoTagList, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return [...MATERIAL_TAGS, UPLOAD_TAG];
  });

  defineRoute(app, cutVideoEndpoints.getSystemMaterialList, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const categories = query.categoryId !== undefined ? categoryNames(query.categoryId) : undefined;
    if (categories === null) throw badRequest('「素材分类」不存在');
    return listMaterials(
      app.uploads,
      app.config.mediaDir,
      user.id,
      {
        ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
        ...(categories ? { categories } : {}),
        pageIndex: query.pageIndex ?? 1,
        pageSize: query.pageSize ?? 20,
      },
      app.stores.media,
    );
  });

  defineRoute(app, cutVideoEndpoints.getCutVideo, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return toApi(await cuts.get(user.id, query.workId));
  });

  defineRoute(app, cutVideoEndpoints.updateCutVideoData, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return toApi(await cuts.update(user.id, body));
  });

  defineRoute(app, cutVideoEndpoints.generateCutTts, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const work = await cuts.speechWork(user.id, body.workId, body.voiceId, body.indexes);
    // A second one while one runs: 409 from startTask.
    return app.videoTasks.startTask({
      userId: user.id,
      workId: work.workId,
      type: work.type,
      kind: 'cut-speech',
      input: {
        voiceId: body.voiceId,
        speed: body.speed ?? 1,
        ...(body.indexes ? { indexes: [...new Set(body.indexes)] } : {}),
      },
    });
  });

  defineRoute(app, cutVideoEndpoints.endCutVideo, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await cuts.finish(user.id, body.workId);
    return null;
  });

  // The built-in loops and covers (the list's URLs): the same files for every signed-in user,
  // generated at the first request. Only the library's own file names are served.
  const libraryFiles = new Map(
    BUILTIN_MATERIALS.flatMap((m) => {
      const names = materialFileNames(m);
      return [
        [names.video, m],
        [names.cover, m],
      ] as const;
    }),
  );
  app.get(`${MATERIAL_URL_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    await app.auth.requireUser(request, reply);
    const segments = pathSegments(request.url, MATERIAL_URL_PREFIX);
    const material = segments?.length === 1 ? libraryFiles.get(segments[0] ?? '') : undefined;
    if (!material || !segments) return sendFileNotFound(reply);
    await ensureMaterial(app.config.mediaDir, material, {}, app.stores.media);
    const file = await resolveInside(materialsDir(app.config.mediaDir), segments);
    if (!file) return sendFileNotFound(reply);
    return sendFile(request, reply, file, CACHE_LIBRARY);
  });
}
