// The server's programs (src/server.ts, src/worker.ts, src/cli.ts) as JavaScript files bundled by
// esbuild, run with plain `node` rather than through a TypeScript loader: an API process is up
// in well under half the time (tsx compiles some 300 files at every start), and the ops CLI
// answers in tens of milliseconds. A bundle is made the first time and again whenever a file it
// was made from has changed since; the list of those files is kept beside it (esbuild's
// metafile), so checking costs a few hundred `stat` calls. tsx stays for development
// (`pnpm --filter @kol/server dev`) and the tests, which run the sources.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'server');

/** Where each program's bundle goes: the CLI's own folder predates the others. */
const OUT = {
  cli: path.join(SERVER, 'dist-cli'),
  server: path.join(SERVER, 'dist'),
  worker: path.join(SERVER, 'dist'),
};

/**
 * Entries bundled with a program, by output name: the book parser's worker thread, which Node
 * starts from a file of its own (src/writing/books/parse-off-thread.ts picks this one in a bundle).
 */
const COMPANIONS = {
  server: {
    'parse-worker': path.join(SERVER, 'src', 'writing', 'books', 'parse-worker-bundle.ts'),
  },
};

function paths(program) {
  const out = OUT[program];
  if (!out) throw new Error(`no such server program: ${program} (cli, server or worker)`);
  const companions = COMPANIONS[program] ?? {};
  return {
    entry: path.join(SERVER, 'src', `${program}.ts`),
    bundle: path.join(out, `${program}.mjs`),
    inputs: path.join(out, `${program}.inputs.json`),
    program,
    companions,
    companionFiles: Object.keys(companions).map((name) => path.join(out, `${name}.mjs`)),
  };
}

function current({ bundle, inputs, companionFiles }) {
  if (!existsSync(bundle) || !existsSync(inputs)) return false;
  if (companionFiles.some((file) => !existsSync(file))) return false;
  const builtAt = statSync(bundle).mtimeMs;
  const files = JSON.parse(readFileSync(inputs, 'utf8'));
  return files.every((file) => {
    const absolute = path.join(ROOT, file);
    return existsSync(absolute) && statSync(absolute).mtimeMs <= builtAt;
  });
}

/**
 * The installed packages stay outside the bundle, loaded from node_modules as the sources load
 * them (native addons, WebAssembly and data files find themselves there); the workspace's own
 * SDK is bundled, since its package exports TypeScript sources.
 */
function externals() {
  const manifest = JSON.parse(readFileSync(path.join(SERVER, 'package.json'), 'utf8'));
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
    .filter((name) => !name.startsWith('@kol/'))
    .flatMap((name) => [name, `${name}/*`]);
}

async function bundle({ entry, bundle: file, inputs: inputsFile, program, companions }) {
  // esbuild is the server's dev dependency; resolve it from there.
  const esbuild = createRequire(path.join(SERVER, 'package.json'))('esbuild');
  const result = await esbuild.build({
    entryPoints: { [program]: entry, ...companions },
    outdir: path.dirname(file),
    outExtension: { '.js': '.mjs' },
    write: false,
    // What the sources ask to tell a bundle from a run through tsx or jest.
    define: { __KOL_BUNDLED__: 'true' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externals(),
    // A subpath without an exports map, which Node's ES loader only finds with its extension.
    alias: { '@node-rs/jieba/dict': '@node-rs/jieba/dict.js' },
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
      .map((input) => path.relative(ROOT, path.resolve(process.cwd(), input)))
      .filter((input) => !input.includes('node_modules')),
    'pnpm-lock.yaml',
  ];
  // Written aside and renamed into place: two processes started at once never read half a file.
  mkdirSync(path.dirname(file), { recursive: true });
  const write = (target, content) => {
    const aside = `${target}.${process.pid}`;
    writeFileSync(aside, content);
    renameSync(aside, target);
  };
  for (const output of result.outputFiles) write(output.path, output.contents);
  write(inputsFile, JSON.stringify(inputs, null, 2) + '\n');
}

/** The program's bundle, made first when missing or older than a file it is made from. */
export async function bundledProgram(program) {
  const files = paths(program);
  if (!current(files)) await bundle(files);
  return files.bundle;
}

/** Bundles the program if needed and runs it in this process. */
export async function runProgram(program) {
  await import(pathToFileURL(await bundledProgram(program)).href);
}
