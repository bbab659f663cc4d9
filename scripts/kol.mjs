// `pnpm kol …`: the ops CLI (server/src/cli.ts), run as one JavaScript file bundled by esbuild
// rather than through a TypeScript loader, so a command starts in a few tens of milliseconds
// (through tsx it took a second: bench/rollback.mjs). See server-bundle.mjs.
import { runProgram } from './server-bundle.mjs';

await runProgram('cli');
