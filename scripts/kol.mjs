// `pnpm kol …`: the ops CLI (server/src/cli.ts), run as one JavaScript file bundled by esbuild
// rather than through a TypeScript loader, so a command starts in a few tens of milliseconds
// (through tsx it took a second: bench/rollback.mjs). The bundle is made here the first time and
// again whenever a file it was made from has changed since; the list of those files is kept
// beside it (esbuild's metafile), so checking costs a few dozen `stat` calls.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'server');
const OUT = path.join(SERVER, 'dist-cli');
const BUNDLE = path.join(OUT, 'cli.mjs');
const INPUTS = path.join(OUT, 'inputs.json');

function current() {
  if (!existsSync(BUNDLE) || !existsSync(INPUTS)) return false;
  const builtAt = statSync(BUNDLE).mtimeMs;
  const inputs = JSON.parse(readFileSync(INPUTS, 'utf8'));
  return inputs.every((file) => {
    const absolute = path.join(ROOT, file);
    return existsSync(absolute) && statSync(absolute).mtimeMs <= builtAt;
  });
}

async function bundle() {
  // esbuild is the server's dev dependency; resolve it from there.
  const esbuild = createRequire(path.join(SERVER, 'package.json'))('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(SERVER, 'src', 'cli.ts')],
    outfile: BUNDLE,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'error',
    // Bundled CommonJS dependencies call require(); give the ES module one.
    banner: {
      js: "import { createRequire as __kolRequire } from 'node:module'; const require = __kolRequire(import.meta.url);",
    },
  });
  // Our sources; the installed packages change only with the lockfile.
  const inputs = [
    ...Object.keys(result.metafile.inputs)
      .map((file) => path.relative(ROOT, path.resolve(process.cwd(), file)))
      .filter((file) => !file.includes('node_modules')),
    'pnpm-lock.yaml',
  ];
  // Written aside and renamed into place: two commands started at once never read half a file.
  mkdirSync(OUT, { recursive: true });
  const write = (file, content) => {
    const aside = `${file}.${process.pid}`;
    writeFileSync(aside, content);
    renameSync(aside, file);
  };
  write(BUNDLE, result.outputFiles[0].contents);
  write(INPUTS, JSON.stringify(inputs, null, 2) + '\n');
}

if (!current()) await bundle();
await import(pathToFileURL(BUNDLE).href);
