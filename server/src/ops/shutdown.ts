import type { Logger } from '../tasks/runner';

/**
 * SIGTERM (and SIGINT) stop the process the orderly way: `stop` drains it (the API stops taking
 * requests and answers those in flight; a worker lets its running stages finish or gives them
 * back), then the process exits 0. Past `graceMs` plus a margin for the last writes, it exits 1
 * whatever is still running; a second signal exits at once.
 */
export function stopOnSignals(log: Logger, graceMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      log.info({ signal, graceMs }, 'draining, then stopping');
      setTimeout(() => {
        log.error({ graceMs }, 'draining took too long: exiting');
        process.exit(1);
      }, graceMs + 10_000).unref();
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'stopping failed');
          process.exit(1);
        },
      );
    });
  }
}
