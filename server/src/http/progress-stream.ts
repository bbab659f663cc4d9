import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_PROGRESS } from '../tasks/runner';
import type { TaskProgressEvent } from '../tasks/types';

const HEARTBEAT_MS = 15_000;
/** Tasks run by another process (a worker) reach this one only through the database. */
const POLL_MS = 1_000;
/** At most this often a `progress` event per stream: a render reports many times a second. */
const MIN_GAP_MS = 250;

export const taskFinished = (state: string) => !['queued', 'running'].includes(state);

export interface ProgressSource<T> {
  /** The whole value as it is now (read from the database). */
  read(): Promise<T>;
  /** It will not change any more: sent as `done`, and the stream ends. */
  done(value: T): boolean;
  /** Equal keys are not sent twice. */
  key(value: T): string;
  /** Whether a task event of this process concerns the value (wakes the stream at once). */
  concerns(event: TaskProgressEvent): boolean;
}

/**
 * The server-sent progress streams (a work's task, a series' episodes): `progress` events with
 * the value on each change, then `done` with the last one, and the stream ends. In-process task
 * events wake it at once; a poll of the database covers the tasks of worker processes.
 */
export function progressStreams(app: FastifyInstance) {
  /** The streams open now, ended when the server closes (SIGTERM): see the preClose hook. */
  const open = new Set<() => void>();
  // A stream never ends by itself: without this, a closing server would wait for every open
  // page. Each is told to come back in a second (to another process, behind a balancer) and
  // ended; EventSource reconnects by itself.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  return async function serve<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    source: ProgressSource<T>,
  ): Promise<void> {
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
      open.delete(endAtShutdown);
      clearInterval(heartbeat);
      clearInterval(poller);
      clearTimeout(pending);
      app.videoTasks.events.off(EVENT_PROGRESS, onEvent);
      raw.end();
    };
    const endAtShutdown = () => {
      if (!closed) raw.write('retry: 1000\n\n');
      close();
    };
    const send = (value: T) => {
      if (closed) return;
      const done = source.done(value);
      const key = source.key(value);
      if (!done && key === lastSent) return;
      lastSent = key;
      lastAt = Date.now();
      raw.write(`event: ${done ? 'done' : 'progress'}\ndata: ${JSON.stringify(value)}\n\n`);
      if (done) close();
    };
    const refresh = async () => {
      if (closed) return;
      try {
        send(await source.read());
      } catch (error) {
        request.log.warn({ err: error }, 'progress read failed');
      }
    };
    const onEvent = (event: TaskProgressEvent) => {
      if (closed || !source.concerns(event)) return;
      if (taskFinished(event.state)) {
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
    open.add(endAtShutdown);
    await refresh();
  };
}
