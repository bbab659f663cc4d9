import type { CliEnv } from '../../src/env';
import { runCli } from '../../src/cli/run';
import { ADMIN_TOKEN } from './test-app';

/**
 * Runs the ops CLI as `pnpm kol …` would, against `server` (a test app listening), as actor
 * `tester`, with the admin token of the tests; `env` adds what a command reads (the repository
 * root and the folder typed in, for `remote release`).
 */
export async function runKol(server: string, argv: string[], env: Partial<CliEnv> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...argv, '--server', server, '--actor', 'tester'], {
    env: {
      defaultServer: 'http://127.0.0.1:1',
      dataDir: '/nonexistent',
      adminToken: ADMIN_TOKEN,
      osUser: 'os-user',
      ...env,
    },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
