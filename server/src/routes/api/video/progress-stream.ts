import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Id, VIDEO_PROGRESS_STREAM_PATH, type WorkResult } from '@kol/shared-sdk/contracts';
import { notFound } from '../../../http/api-error';
import { EVENT_PROGRESS } from '../../../tasks/runner';
import type { TaskProgressEvent } from '../../../tasks/types';

const HEARTBEAT_MS = 15_000;
/** Tasks run by another process (a worker) reach this one only through the database. */
const POLL_MS = 1_000;
/** At most this often a `progress` event per stream: a render reports many times a second. */
const MIN_GAP_MS = 250;

const finished = (state: string) => !['queued', 'running'].includes(state);

/**
 * Pushes a work's task progress to the browser (see VIDEO_PROGRESS_STREAM_PATH). In-process
 * task events wake it at once; a poll of the database covers tasks run by worker processes.
 */
export default async function videoProgressRoutes(app: FastifyInstance) {
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
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.flushHeaders();

      let closed = false;
      let lastSent = '';
      let lastAt = 0;
      let pending: NodeJS.Timeout | undefined;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        clearInterval(poller);
        clearTimeout(pending);
        app.videoTasks.events.off(EVENT_PROGRESS, onEvent);
        raw.end();
      };
      const send = (result: WorkResult) => {
        if (closed) return;
        const done = result.taskId === null || finished(result.state);
        const key = `${result.taskId}|${result.state}|${result.stage}|${result.progress}`;
        if (!done && key === lastSent) return;
        lastSent = key;
        lastAt = Date.now();
        raw.write(`event: ${done ? 'done' : 'progress'}\ndata: ${JSON.stringify(result)}\n\n`);
        if (done) close();
      };
      const refresh = async () => {
        if (closed) return;
        try {
          send(await app.videoTasks.getWorkProgress(user.id, workId));
        } catch (error) {
          request.log.warn({ err: error, workId }, 'video progress read failed');
        }
      };
      // A live event carries the figures; the full result (stages, URLs) is read when sent.
      const onEvent = (event: TaskProgressEvent) => {
        if (closed || event.workId !== workId || event.userId !== user.id) return;
        if (finished(event.state)) {
          void refresh();
          return;
        }
        const wait = Math.max(0, MIN_GAP_MS - (Date.now() - lastAt));
        if (pending) return;
        pending = setTimeout(() => {
          pending = undefined;
          void refresh();
        }, wait);
      };
      app.videoTasks.events.on(EVENT_PROGRESS, onEvent);
      const heartbeat = setInterval(() => {
        if (!closed) raw.write(': ping\n\n');
      }, HEARTBEAT_MS);
      const poller = setInterval(() => void refresh(), POLL_MS);
      request.raw.on('close', close);
      await refresh();
    },
  );
}
