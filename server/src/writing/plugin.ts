import path from 'node:path';
import fp from 'fastify-plugin';
import { findRepoRoot } from '../paths';
import { createLocalProvider } from './local/engine';
import { warmUp } from '../text/analysis';
import { modelWriter } from './model-writer';
import type { TextProvider } from './types';
import { createWritingService, readSampleBooks, type WritingService } from './service';
import { RESTART_MESSAGE, WritingTaskService } from './tasks';

declare module 'fastify' {
  interface FastifyInstance {
    writing: WritingService & {
      provider: TextProvider;
      runner: WritingTaskService;
      /** How long an untouched unfinished task is taken as alive (AppConfig.writingTaskStaleMs). */
      staleMs: number;
    };
  }
}

const DEFAULT_STALE_MS = 15_000;
const SAMPLE_BOOKS_DIR = () => path.join(findRepoRoot(), 'server', 'assets', 'sample-books');
const SWEEP_EVERY_MS = 10_000;

/**
 * Writing: the text provider chosen by configuration, the task runner, the sample books, and
 * the clean-up of tasks a previous process left unfinished.
 */
export default fp(
  async (app) => {
    const provider = app.providers.text ? modelWriter(app.providers.text) : createLocalProvider();
    const startStaleMs = app.config.writingTaskStaleMs ?? DEFAULT_STALE_MS;
    // After start, this process's own tasks are known to it; others' need the full grace time.
    const staleMs = Math.max(startStaleMs, DEFAULT_STALE_MS);
    const runner = new WritingTaskService({ repo: app.writingTasks, log: app.log });

    const failed = await app.writingTasks.failStale(startStaleMs, RESTART_MESSAGE);
    if (failed > 0)
      app.log.info({ failed }, 'writing tasks left unfinished by a previous process marked failed');
    const loaded = await app.books.syncSamples(await readSampleBooks(SAMPLE_BOOKS_DIR()));
    if (loaded.length > 0) app.log.info({ loaded }, 'sample books loaded');
    // jieba's dictionary takes ~200 ms to load: at start, not in the first user's request.
    if (!app.providers.text) warmUp();

    const sweep = setInterval(() => {
      app.writingTasks.failStale(staleMs, RESTART_MESSAGE).catch((error: unknown) => {
        app.log.warn({ err: error }, 'writing task sweep failed');
      });
    }, SWEEP_EVERY_MS);
    sweep.unref();
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      await runner.close();
    });

    const service = createWritingService({
      books: app.books,
      tasks: app.writingTasks,
      runner,
      provider,
      staleMs,
    });
    app.decorate('writing', { ...service, provider, runner, staleMs });
    app.log.info({ engine: provider.label }, 'text provider');
  },
  { name: 'writing', dependencies: ['repositories', 'providers'] },
);
