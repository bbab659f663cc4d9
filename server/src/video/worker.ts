import type { AppConfig } from '../config';
import { providersFrom } from '../providers';
import { createRepositories } from '../repositories';
import { storeCopiesDir, storesFrom } from '../storage';
import { startCopiesSweep } from '../storage/cache-sweep';
import { taskMirror } from '../storage/task-mirror';
import type { Logger } from '../tasks/runner';
import { startWorkerProcess, type WorkerProcess } from '../tasks/worker-process';
import { pipelineOptionsFrom, registerVideoPipelines } from './pipelines';

/**
 * A process that only renders videos (src/worker.ts): the generic task worker with the same
 * pipelines and providers as the server, so a task started by one process is finished the same
 * way by another.
 */
export async function startVideoWorker(
  config: AppConfig,
  log: Logger,
  queueOptions: { pollingIntervalSeconds?: number } = {},
): Promise<WorkerProcess> {
  const providers = providersFrom(config);
  const stores = await storesFrom(config);
  await Promise.all(Object.values(stores).map((store) => store.open()));
  const stopSweep = config.mediaStore
    ? startCopiesSweep(storeCopiesDir(config), (error) =>
        log.warn({ err: error }, 'sweeping the media store copies failed'),
      )
    : () => {};
  const worker = await startWorkerProcess(config, log, {
    ...queueOptions,
    files: taskMirror(stores.media, config.mediaDir),
    register: (registry, db) => {
      registerVideoPipelines(
        registry,
        pipelineOptionsFrom(config, createRepositories(db), providers, stores),
      );
    },
  });
  return {
    ...worker,
    async stop() {
      stopSweep();
      await worker.stop();
    },
  };
}
