import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Id, VIDEO_PROGRESS_STREAM_PATH, type WorkResult } from '@kol/shared-sdk/contracts';
import { notFound } from '../../../http/api-error';
import { progressStreams, taskFinished } from '../../../http/progress-stream';

/** Pushes a work's task progress to the browser (see VIDEO_PROGRESS_STREAM_PATH). */
export default async function videoProgressRoutes(app: FastifyInstance) {
  const serve = progressStreams(app);
  app.get(
    VIDEO_PROGRESS_STREAM_PATH,
    {
      // As defineRoute does for a route that needs a session: 401 before the query is validated.
      onRequest: app.auth.requireSession,
      schema: {
        summary: '视频任务进度的事件流（text/event-stream，不是 JSON 信封）',
        tags: ['video'],
        querystring: Type.Object({ workId: Id('作品') }),
        security: [{ session: [] }],
      },
    },
    async (request, reply) => {
      const user = await app.auth.requireUser(request, reply);
      const { workId } = request.query as { workId: number };
      if (!(await app.works.find(user.id, workId))) {
        throw notFound('没有找到这个作品（可能已删除，或不属于你）');
      }
      await serve<WorkResult>(request, reply, {
        read: () => app.videoTasks.getWorkProgress(user.id, workId),
        done: (result) => result.taskId === null || taskFinished(result.state),
        key: (result) => `${result.taskId}|${result.state}|${result.stage}|${result.progress}`,
        concerns: (event) => event.workId === workId && event.userId === user.id,
      });
    },
  );
}
