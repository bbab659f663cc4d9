import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Id, SERIES_DOWNLOAD_PATH, seriesEndpoints } from '@kol/shared-sdk/contracts';
import { conflict } from '../../../http/api-error';
import { requestSignal } from '../../../http/request-signal';
import { streamSeriesZip } from '../../../series/zip';
import { defineRoute } from '../../define-route';

/** Reading the cast through a text model may take a while; past this the local reading answers. */
const CREATE_TIMEOUT_MS = 150_000;

/** `/api/series/*`: a book's chapters made into episodes (src/series/service.ts). */
export default async function seriesRoutes(app: FastifyInstance) {
  defineRoute(app, seriesEndpoints.plan, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.plan(user.id, body);
  });

  defineRoute(app, seriesEndpoints.create, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.create(user.id, body, requestSignal(request, CREATE_TIMEOUT_MS));
  });

  defineRoute(app, seriesEndpoints.start, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.start(user.id, body.seriesId, body.episodes);
  });

  defineRoute(app, seriesEndpoints.detail, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.detail(user.id, query.seriesId);
  });

  defineRoute(app, seriesEndpoints.list, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.list(user.id);
  });

  defineRoute(app, seriesEndpoints.pause, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.pause(user.id, body.seriesId);
  });

  defineRoute(app, seriesEndpoints.resume, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.resume(user.id, body.seriesId);
  });

  defineRoute(app, seriesEndpoints.cancel, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.cancel(user.id, body.seriesId);
  });

  defineRoute(app, seriesEndpoints.retryEpisode, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.series.retryEpisode(user.id, body.seriesId, body.index);
  });

  // The finished episodes as one ZIP, streamed from the media store (outside the envelope).
  app.get(
    SERIES_DOWNLOAD_PATH,
    {
      onRequest: app.auth.requireSession,
      schema: {
        summary: '下载系列：已完成各集的 MP4 与 SRT（ZIP，不是 JSON 信封）',
        tags: ['series'],
        querystring: Type.Object({ seriesId: Id('系列') }),
        security: [{ session: [] }],
      },
    },
    async (request, reply) => {
      const user = await app.auth.requireUser(request, reply);
      const { seriesId } = request.query as { seriesId: number };
      const series = await app.series.detail(user.id, seriesId);
      const done = series.episodes.filter((e) => e.state === 'succeeded' && e.videoUrl);
      if (done.length === 0) throw conflict('这个系列还没有完成的分集可以下载');
      await streamSeriesZip(app.stores.media, user.id, series.title, done, reply);
    },
  );
}
