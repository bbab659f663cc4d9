import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Id, SERIES_PROGRESS_STREAM_PATH, type SeriesDetail } from '@kol/shared-sdk/contracts';
import { progressStreams } from '../../../http/progress-stream';

/** Pushes a series' episodes' progress to the browser (see SERIES_PROGRESS_STREAM_PATH). */
export default async function seriesProgressRoutes(app: FastifyInstance) {
  const serve = progressStreams(app);
  app.get(
    SERIES_PROGRESS_STREAM_PATH,
    {
      onRequest: app.auth.requireSession,
      schema: {
        summary: '系列分集进度的事件流（text/event-stream，不是 JSON 信封）',
        tags: ['series'],
        querystring: Type.Object({ seriesId: Id('系列') }),
        security: [{ session: [] }],
      },
    },
    async (request, reply) => {
      const user = await app.auth.requireUser(request, reply);
      const { seriesId } = request.query as { seriesId: number };
      // 404 before the stream opens: another user's series is not found either.
      const first = await app.series.detail(user.id, seriesId);
      const works = new Set(first.episodes.map((episode) => episode.workId));
      await serve<SeriesDetail>(request, reply, {
        read: () => app.series.detail(user.id, seriesId),
        // A draft waits for its start; a running or paused series for its episodes.
        done: (series) =>
          series.state === 'finished' ||
          (series.state === 'cancelled' &&
            series.episodes.every((e) => e.state !== 'queued' && e.state !== 'running')),
        key: (series) =>
          `${series.state}|${series.episodes.map((e) => `${e.state}:${e.stage}:${e.progress}`).join(',')}`,
        concerns: (event) =>
          event.userId === user.id && event.workId !== null && works.has(event.workId),
      });
    },
  );
}
