import type { CliEnv } from '../env';
import type { AdminCall } from './admin-client';
import type { Values } from './args';

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

/** What a command is given to do its work. */
export interface CommandContext {
  /** Every option of the command line (args.ts lists them). */
  values: Values;
  /** The words after the command's two: `remote promote mfe_user 0.1.0-…` → [mfe_user, 0.1.0-…]. */
  args: string[];
  call: AdminCall;
  /** --json: `call` has printed the server's answer already, so print nothing more. */
  quiet: boolean;
  io: CliIo;
}

/** One command, such as `user list`: its lines of the usage text and what it does. */
export interface Command {
  /** The second word: `list` in `pnpm kol user list`. */
  name: string;
  /** Its lines in `pnpm kol --help`, as they print there without the two leading spaces. */
  usage: string[];
  /** Returning means exit code 0; a CliError thrown reports its message and exit code. */
  run(context: CommandContext): Promise<void>;
}

/** The commands that share a first word (`user`), one module each in commands/. */
export interface CommandGroup {
  name: string;
  commands: Command[];
}
