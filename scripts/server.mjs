// `node scripts/server.mjs server|worker`: the API server or a video worker process, run from
// its bundle (server-bundle.mjs: made when missing or older than its sources). This is what
// `pnpm --filter @kol/server start` and `worker` run, so `pnpm start` and production run plain
// JavaScript; `dev` and `dev:worker` run the sources through tsx.
import { runProgram } from './server-bundle.mjs';

const program = process.argv[2];
if (program !== 'server' && program !== 'worker') {
  process.stderr.write('usage: node scripts/server.mjs server|worker\n');
  process.exit(2);
}
await runProgram(program);
