import { isEnvError, readEnv } from './env';
import { runVideoWorker } from './video/worker';

/**
 * `pnpm --filter @kol/server worker`: runs video task jobs only, for installations with
 * separate worker processes (set VIDEO_WORKERS_IN_PROCESS=false on the servers then).
 */
async function main() {
  const env = readEnv();
  const log = {
    info: (obj: object, msg?: string) =>
      console.log(JSON.stringify({ level: 'info', msg, ...obj })),
    warn: (obj: object, msg?: string) =>
      console.warn(JSON.stringify({ level: 'warn', msg, ...obj })),
    error: (obj: object, msg?: string) =>
      console.error(JSON.stringify({ level: 'error', msg, ...obj }, errorFields)),
  };
  await runVideoWorker(env.app, log);
}

/** JSON.stringify leaves an Error's message and stack out; keep them. */
function errorFields(_key: string, value: unknown) {
  return value instanceof Error ? { message: value.message, stack: value.stack } : value;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${isEnvError(error) ? 'Configuration error' : 'Worker failed'}: ${String(error)}\n`,
  );
  process.exit(1);
});
