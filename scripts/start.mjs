#!/usr/bin/env node
// `pnpm start`: builds the host shell and every remote whose build is out of date, then runs the
// server, which releases the remote builds and serves everything on one port. Plain Node, no
// dependencies, so it runs on a fresh clone right after pnpm's install.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restoreFolder, saveFolder } from './machine-cache.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = '.build-stamp';
/** Bump to rebuild everything once when what the stamp means changes. */
const STAMP_FORMAT = 1;

/**
 * pnpm as the user started it: `npx pnpm@x start` puts no pnpm on PATH, but pnpm tells its
 * scripts where it is. A JavaScript entry runs under this Node; a native pnpm runs as it is.
 */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && path.basename(execPath).includes('pnpm')) {
    return /\.[cm]?js$/.test(execPath) ? [process.execPath, execPath] : [execPath];
  }
  return ['pnpm'];
}

const log = (line) => process.stdout.write(`[start] ${line}\n`);

/** Files below `dir` in a stable order; tests and dotfiles change no build. */
function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === '__tests__')
      continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/** Everything a package's build output depends on, as one hash. */
function inputsHash(pkgDir) {
  const files = [
    ...listFiles(path.join(pkgDir, 'src')),
    path.join(pkgDir, 'package.json'),
    path.join(pkgDir, 'webpack.config.cjs'),
    path.join(pkgDir, 'routes.json'),
    path.join(ROOT, 'webpack.preset.cjs'),
    path.join(ROOT, 'scripts', 'antd-styles.cjs'),
    ...listFiles(path.join(ROOT, 'shared-sdk', 'src')),
    path.join(ROOT, 'pnpm-lock.yaml'),
  ];
  const hash = createHash('sha256').update(`format ${STAMP_FORMAT}\0`);
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(`${path.relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(distDir) {
  try {
    return JSON.parse(readFileSync(path.join(distDir, STAMP), 'utf8')).inputs ?? null;
  } catch {
    return null;
  }
}

/** Runs a command with this terminal; resolves with its exit code. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: process.env,
      ...options,
    });
    child.on('error', (error) => {
      log(`could not run ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** host-shell first (without it there is nothing to show), then every mfe-* with a webpack config. */
function buildablePackages() {
  const remotes = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('mfe-'))
    .map((entry) => entry.name)
    .sort();
  return ['host-shell', ...remotes]
    .map((folder) => ({ folder, dir: path.join(ROOT, folder) }))
    .filter(({ dir }) => existsSync(path.join(dir, 'webpack.config.cjs')))
    .map(({ folder, dir }) => ({
      folder,
      dir,
      name: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name,
      isHost: folder === 'host-shell',
      // The file a finished build always has: a stamp next to a half-written dist means nothing.
      marker: folder === 'host-shell' ? 'index.html' : 'mf-manifest.json',
    }));
}

async function buildAll(pnpm) {
  const packages = buildablePackages();
  if (!packages.some((pkg) => pkg.isHost)) {
    log('host-shell has no webpack.config.cjs yet: the server will answer a "not built" page.');
  }
  let attempted = 0;
  let failed = 0;
  for (const pkg of packages) {
    const dist = path.join(pkg.dir, 'dist');
    const inputs = inputsHash(pkg.dir);
    const current = () => readStamp(dist) === inputs && existsSync(path.join(dist, pkg.marker));
    if (current()) {
      log(`${pkg.folder}: nothing changed since its last build, reusing dist/`);
      continue;
    }
    // The same inputs built before on this machine (another clone, a CI run): that build.
    if (restoreFolder('builds', pkg.folder, inputs, dist) && current()) {
      log(`${pkg.folder}: built before on this machine from the same sources, reusing that build`);
      continue;
    }
    attempted += 1;
    log(`${pkg.folder}: building (${pkg.name})...`);
    rmSync(path.join(dist, STAMP), { force: true });
    const started = Date.now();
    // One at a time: webpack uses both cores on its own.
    const code = await run(pnpm[0], [...pnpm.slice(1), '--filter', pkg.name, 'build']);
    if (code !== 0) {
      if (pkg.isHost) {
        log(`host-shell: the build FAILED (exit ${code}); see the errors above.`);
        log('Nothing can be shown without the host shell, so the server is not started.');
        log(`Fix it, or try it alone with: pnpm --filter ${pkg.name} build`);
        process.exit(1);
      }
      failed += 1;
      log(`${pkg.folder}: the build FAILED (exit ${code}); see the errors above.`);
      log(
        `${pkg.folder}: starting without a new build of it: its last release stays active if ` +
          'there is one, otherwise its pages show the error page. Rebuild alone with: ' +
          `pnpm --filter ${pkg.name} build`,
      );
      continue;
    }
    writeFileSync(
      path.join(dist, STAMP),
      JSON.stringify({ inputs, builtAt: new Date().toISOString() }) + '\n',
    );
    saveFolder('builds', pkg.folder, inputs, dist);
    log(`${pkg.folder}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (packages.length > 0 && attempted === 0) log('every build was current: reused them all');
  return { failed };
}

/** A server that ran at least this long before it died is restarted; a start that fails is not. */
const RESTART_IF_UP_MS = 10_000;
/** More deaths than this within RESTART_WINDOW_MS: something is wrong, stop restarting. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 5 * 60_000;

/**
 * The server runs in a process group of its own, and a signal we get goes to that whole group:
 * each process in it (pnpm, tsx, node) gets it exactly once, as from a terminal's Ctrl-C,
 * however this script was started (a terminal, a process manager, a test).
 *
 * A server that dies on its own (a crash, the kernel's out-of-memory killer) after it has been
 * up a while is started again, so a creator's tool comes back by itself; its tasks resume from
 * their last finished stage. A server that fails at start (bad configuration, port taken) is
 * not: that needs a person.
 */
async function startServer(pnpm) {
  let child = null;
  let stopping = false;
  const deaths = [];
  const forward = (signal) => {
    try {
      if (child) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      stopping = true;
      forward(signal);
    });
  }
  // If this script dies for another reason, the server must not outlive it.
  process.on('exit', () => forward('SIGTERM'));

  const run = () => {
    const startedAt = Date.now();
    child = spawn(pnpm[0], [...pnpm.slice(1), '--filter', '@kol/server', 'start'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: process.env,
      detached: true,
    });
    child.on('error', (error) => {
      log(`could not start the server: ${error.message}`);
      process.exit(1);
    });
    child.on('exit', (code, signal) => {
      const clean = code === 0 || signal === 'SIGINT' || signal === 'SIGTERM';
      const now = Date.now();
      deaths.push(now);
      while (deaths.length > 0 && deaths[0] < now - RESTART_WINDOW_MS) deaths.shift();
      if (!stopping && !clean && now - startedAt >= RESTART_IF_UP_MS) {
        if (deaths.length <= MAX_RESTARTS) {
          log(
            `the server stopped unexpectedly (${signal ?? `exit ${code}`}); starting it again...`,
          );
          setTimeout(run, 1_000);
          return;
        }
        log(`the server stopped ${deaths.length} times in a few minutes; not restarting it.`);
      }
      process.exitCode = code ?? (clean ? 0 : 1);
      process.removeAllListeners('exit');
      process.exit();
    });
  };
  run();
}

const pnpm = pnpmCommand();
const { failed } = await buildAll(pnpm);
// `--build-only`: the builds the start would make, and no server (the test command makes them
// while the unit tests run, so the end-to-end tests start on current builds).
if (process.argv.includes('--build-only')) process.exit(failed > 0 ? 1 : 0);
log('starting the server...');
await startServer(pnpm);
