import type { FastifyInstance } from 'fastify';
import { ANIME_LENGTHS, ProjectType, animeEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, notFound } from '../../../http/api-error';
import { adaptScript } from '../../../video/pipelines/anime/script';
import { defineRoute } from '../../define-route';
import { requestSignal } from '../../../http/request-signal';

/** An adaptation by a model may take a while; past this the page is better told. */
const ADAPT_TIMEOUT_MS = 120_000;

/**
 * The anime short's (type 11) steps before its render: the script adapted from a story (the
 * same adaptation its render's script stage makes), and the storyboard task the storyboard and
 * final-check pages follow. Neither spends a count; both need the type's template id.
 */
export default async function videoAnimeRoutes(app: FastifyInstance) {
  defineRoute(app, animeEndpoints.animeScript, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, ProjectType.animeShorts);
    const text = body.text.trim();
    if (!text) throw badRequest('「故事或创意」不能为空');
    const script = await adaptScript(
      text,
      app.providers.chat,
      requestSignal(request, ADAPT_TIMEOUT_MS),
      {
        ...(body.genre ? { genre: body.genre } : {}),
        ...(body.length ? { lines: ANIME_LENGTHS[body.length].lines } : {}),
      },
    );
    if (script.lines.length === 0) throw badRequest('「故事或创意」中没有可以改编成台词的文字');
    return script;
  });

  defineRoute(app, animeEndpoints.animeStoryboard, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, ProjectType.animeShorts);
    const work = await app.works.find(user.id, body.workId);
    if (!work) throw notFound('没有找到这个作品（可能已删除，或不属于你）');
    if (work.type !== ProjectType.animeShorts) throw badRequest('只有 AI漫剧 作品有分镜步骤');
    return app.videoTasks.startStoryboardTask(user.id, work.workId);
  });
}
