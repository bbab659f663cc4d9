import type { AppConfig } from '../config';
import { meteredStores } from '../ops/metered';
import { Metrics, databaseSources } from '../ops/metrics';
import { startOpsServer } from '../ops/ops-server';
import { Readiness } from '../ops/readiness';
import { stopOnSignals } from '../ops/shutdown';
import { providersFrom } from '../providers';
import type { MediaStores } from '../storage/media-store';
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
  options: { pollingIntervalSeconds?: number; metrics?: Metrics } = {},
): Promise<WorkerProcess & { stores: MediaStores }> {
  const { metrics, ...queueOptions } = options;
  const providers = providersFrom(config, metrics);
  const opened = await storesFrom(config);
  const stores = metrics ? meteredStores(opened, metrics) : opened;
  await Promise.all(Object.values(stores).map((store) => store.open()));
  const stopSweep = config.mediaStore
    ? startCopiesSweep(storeCopiesDir(config), (error) =>
        log.warn({ err: error }, 'sweeping the media store copies failed'),
      )
    : () => {};
  const worker = await startWorkerProcess(config, log, {
    ...queueOptions,
    metrics,
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
    stores,
    async stop() {
      stopSweep();
      await worker.stop();
    },
  };
}

/**
 * The worker process of src/worker.ts (and of the tests' worker child): the video worker with
 * its metrics and readiness on the ops listener (METRICS_PORT: a worker has no other), drained
 * at SIGTERM: its running stages finish within the grace time or are given back.
 */
export async function runVideoWorker(
  config: AppConfig,
  log: Logger,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<{ runnerId: string; metricsPort: number | null }> {
  const ops = { metrics: new Metrics('worker'), readiness: new Readiness() };
  const listen = config.ops?.listen ?? null;
  const opsServer = listen ? await startOpsServer(ops, listen) : null;
  const worker = await startVideoWorker(config, log, { ...options, metrics: ops.metrics });
  ops.metrics.readFrom(databaseSources(worker.repos));
  ops.readiness.checkAlso([
    { name: 'database', check: () => worker.ping() },
    { name: 'media store', check: () => worker.stores.media.open() },
  ]);
  ops.readiness.phase = 'ready';
  const { runner } = worker;
  log.info(
    {
      runner: runner.id,
      concurrency: runner.concurrency,
      ...(opsServer && listen
        ? { metrics: `http://${listen.host}:${opsServer.port}/metrics` }
        : {}),
    },
    'video task worker started',
  );
  stopOnSignals(log, config.ops?.shutdownGraceMs ?? 0, async () => {
    ops.readiness.phase = 'draining';
    await worker.stop();
    await opsServer?.close();
  });
  return { runnerId: runner.id, metricsPort: opsServer?.port ?? null };
}
