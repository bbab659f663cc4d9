/**
 * A worker process for the worker tests: the production worker (src/video/worker.ts
 * `runVideoWorker`: metrics listener, SIGTERM drain) started from the JSON config in
 * KOL_WORKER_CONFIG. Prints `ready <metrics port>` once it takes jobs.
 */
import type { AppConfig } from '../../src/config';
import { runVideoWorker } from '../../src/video/worker';

const config = JSON.parse(process.env.KOL_WORKER_CONFIG ?? '{}') as AppConfig;
const line = (obj: object, msg?: string) => console.log(JSON.stringify({ msg, ...obj }));
const log = { info: line, warn: line, error: (obj: object) => console.error(JSON.stringify(obj)) };
runVideoWorker(config, log, { pollingIntervalSeconds: 0.5 }).then(
  ({ metricsPort }) => console.log(`ready ${metricsPort ?? ''}`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
