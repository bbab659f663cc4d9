import { adminCaller } from './admin-client';
import { parseCommandLine } from './args';
import { CliError, type CliIo } from './command';
import { findCommand } from './commands';
import { USAGE } from './usage';

/**
 * Runs one CLI command against a running server's admin API and answers the exit code: 0, 1
 * for a failure, 2 for a usage error. The commands themselves are in commands/, one module per
 * group. Separate from src/cli.ts so tests can call it with their own server and output.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, name, ...args] = positionals;
  if (values.help || !group) {
    io.out(USAGE);
    return values.help ? 0 : 2;
  }

  const call = adminCaller(values, io);
  try {
    const command = findCommand(group, name);
    if (!command) throw new CliError(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`, 2);
    await command.run({ values, args, call, quiet: values.json === true, io });
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    throw error;
  }
}
