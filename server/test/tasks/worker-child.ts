/**
 * A worker process for the kill test: the production worker (src/tasks/worker-process.ts)
 * started from the JSON config in KOL_WORKER_CONFIG. Prints `ready` once it takes jobs.
 */
import type { AppConfig } from '../../src/config';
import { startVideoWorker } from '../../src/video/worker';

const config = JSON.parse(process.env.KOL_WORKER_CONFIG ?? '{}') as AppConfig;
const quiet = { info() {}, warn() {}, error: (obj: object) => console.error(JSON.stringify(obj)) };
startVideoWorker(config, quiet, { pollingIntervalSeconds: 0.5 }).then(
  () => console.log('ready'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
