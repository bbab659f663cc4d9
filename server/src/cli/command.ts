import type { CliEnv } from '../env';

/** Where the CLI reads its settings and writes its lines: the process in cli.ts, arrays in tests. */
export interface CliIo {
  env: CliEnv;
  out(line: string): void;
  err(line: string): void;
}

/** A failure to report in one line, exit code 1 (2 for usage errors). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
