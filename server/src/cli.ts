import { runCli } from './cli/run';
import { readCliEnv } from './env';

/** The ops CLI: `pnpm kol <command>` from the repository root. See cli/README.md. */
runCli(process.argv.slice(2), {
  env: readCliEnv(),
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Unexpected failure: ${String(error)}\n`);
    process.exit(1);
  },
);
