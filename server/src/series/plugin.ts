import fp from 'fastify-plugin';
import { EVENT_PROGRESS } from '../tasks/runner';
import type { TaskProgressEvent } from '../tasks/types';
import { SeriesService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Series of episodes; see src/series/service.ts. */
    series: SeriesService;
  }
}

/** How often a process looks for episodes to start when no task of its own ended. */
const DEFAULT_POLL_MS = 2_000;

/**
 * The series in the API process: its service, and what moves its episodes on. A task of this
 * process that ends lets the next episode start at once; a poll covers the tasks that worker
 * processes run, and anything a crash or a restart left between two episodes. Every process
 * may advance: the service serialises them per user.
 */
export default fp(
  async (app) => {
    const settings = app.config.series;
    const service = new SeriesService({
      repos: app.repos,
      videoTasks: app.videoTasks,
      writer: app.writing.provider,
      chat: app.providers.chat,
      episodesPerUser: settings?.episodesPerUser ?? 1,
      log: app.log,
      wake: () => advance(),
    });
    app.decorate('series', service);

    let running: Promise<void> | null = null;
    let again = false;
    let closing = false;
    function advance() {
      if (closing) return;
      if (running) {
        again = true;
        return;
      }
      running = service
        .advanceAll()
        .catch((error: unknown) => app.log.warn({ err: error }, 'series advance failed'))
        .finally(() => {
          running = null;
          if (again) {
            again = false;
            advance();
          }
        });
    }
    const onTask = (event: TaskProgressEvent) => {
      if (event.kind === 'video' && ['succeeded', 'failed', 'cancelled'].includes(event.state)) {
        advance();
      }
    };
    app.videoTasks.events.on(EVENT_PROGRESS, onTask);
    const timer = setInterval(advance, settings?.pollMs ?? DEFAULT_POLL_MS);
    timer.unref();
    app.addHook('onReady', async () => advance());
    // Before the task runner and the database stop (onClose hooks run in reverse order).
    app.addHook('onClose', async () => {
      closing = true;
      clearInterval(timer);
      app.videoTasks.events.off(EVENT_PROGRESS, onTask);
      await running;
    });
  },
  { name: 'series', dependencies: ['video-tasks', 'writing', 'providers', 'repositories'] },
);
