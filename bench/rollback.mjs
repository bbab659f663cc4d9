// How long a rollback takes, from typing the CLI command to the registry answering the new version.
// Usage: node bench/rollback.mjs [--runs 20] [--via tsx,node,pnpm,api]   (see bench/README.md)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, waitFor } from './lib/net.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'server');
const REMOTE = 'mfe_bench';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    via: { type: 'string', default: 'tsx,node,pnpm,api' },
  },
});
const runs = Number(values.runs);
const modes = values.via.split(',').map((mode) => mode.trim());
for (const mode of modes) {
  if (!['tsx', 'node', 'pnpm', 'api'].includes(mode))
    throw new Error(`--via: unknown mode ${mode}`);
}

/** A tiny remote build as the webpack preset emits it; `marker` changes content and version. */
function fakeBuild(dir, marker) {
  mkdirSync(dir, { recursive: true });
  const files = {
    'mf-manifest.json': JSON.stringify({
      id: REMOTE,
      name: REMOTE,
      metaData: {
        name: REMOTE,
        buildInfo: { buildVersion: '0.1.0', buildName: `@kol/${REMOTE}` },
        remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      },
      shared: [],
      exposes: [],
    }),
    'remoteEntry.js': `var ${REMOTE} = ${JSON.stringify(marker)};`,
    'kol-routes.json': JSON.stringify([{ path: '/bench', layout: 'inside' }]),
    'mf-stats.json': '{}',
    '387.1a99fcde.js': `console.log(${JSON.stringify(marker)});`,
  };
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), content);
  return dir;
}

const children = new Set();
function stopAll() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

/** Runs a command to its end; answers its exit code and output. */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-rollback-'));
try {
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const token = randomBytes(24).toString('hex');
  const env = { ...process.env, KOL_ADMIN_TOKEN: token, PORT: String(port) };
  const hostDist = path.join(dataDir, 'host-dist');
  mkdirSync(hostDist, { recursive: true });

  const server = spawn('pnpm', ['--silent', '--filter', '@kol/server', 'start'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: {
      ...env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      AUTO_PUBLISH_REMOTES: 'false',
      HOST_DIST_DIR: hostDist,
    },
  });
  children.add(server);
  await waitFor(`${api}/healthz`);

  const tsx = path.join(serverDir, 'node_modules', '.bin', 'tsx');
  const cli = {
    // The CLI's source through a TypeScript loader: what `pnpm kol` ran before it was bundled.
    tsx: (args) => [tsx, ['src/cli.ts', ...args], { cwd: serverDir, env }],
    // What `pnpm kol` runs: the bundled CLI (scripts/kol.mjs), without pnpm's start-up.
    node: (args) => [
      process.execPath,
      [path.join(root, 'scripts', 'kol.mjs'), ...args],
      { cwd: root, env },
    ],
    // Exactly what ops type, pnpm's own start-up included.
    pnpm: (args) => ['pnpm', ['--silent', 'kol', ...args], { cwd: root, env }],
  };

  // Two versions, released with the CLI like ops would.
  const versions = [];
  for (const marker of ['one', 'two']) {
    const dir = fakeBuild(path.join(dataDir, 'builds', marker), marker);
    const [command, args, options] = cli.node([
      'remote',
      'release',
      REMOTE,
      '--dir',
      dir,
      '--json',
    ]);
    const result = await run(command, args, options);
    if (result.code !== 0) throw new Error(`release failed: ${result.output}`);
    versions.push(JSON.parse(result.output).to);
  }

  async function activeVersion() {
    const answer = await (await fetch(`${api}/api/platform/remotes`)).json();
    return answer.data.remotes.find((remote) => remote.name === REMOTE)?.version;
  }

  /** Polls the registry from `start` until it answers `expected`; answers the elapsed ms. */
  async function seen(expected, start) {
    for (;;) {
      if ((await activeVersion()) === expected) return performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  // Alternate: active v2 → `remote rollback` (undo to v1) → `remote promote` v2 → ...
  function nextMove(active) {
    return active === versions[1]
      ? { args: ['remote', 'rollback', REMOTE], to: versions[0] }
      : { args: ['remote', 'promote', REMOTE, versions[1]], to: versions[1] };
  }

  const results = [];
  for (const mode of modes) {
    const visible = [];
    const exited = [];
    let active = await activeVersion();
    for (let i = 0; i < runs; i += 1) {
      const move = nextMove(active);
      const start = performance.now();
      if (mode === 'api') {
        // The admin API alone: what the CLI's process start-up is added to.
        const [, action] = move.args;
        const response = await fetch(`${api}/api/admin/remotes/${action}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(
            action === 'rollback' ? { remote: REMOTE } : { remote: REMOTE, version: move.to },
          ),
        });
        const answer = await response.json();
        if (answer.code !== 0) throw new Error(`${action} failed: ${JSON.stringify(answer)}`);
        exited.push(performance.now() - start);
        visible.push(await seen(move.to, start));
      } else {
        const [command, args, options] = cli[mode](move.args);
        const child = run(command, args, options).then((result) => {
          exited.push(performance.now() - start);
          if (result.code !== 0) throw new Error(`CLI failed: ${result.output}`);
        });
        visible.push(await seen(move.to, start));
        await child;
      }
      active = move.to;
    }
    results.push({ mode, visible, exited });
  }

  const stats = (samples) => {
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    return { min: sorted[0], median: at(0.5), p95: at(0.95) };
  };
  const ms = (value) => `${value.toFixed(0)} ms`.padStart(8);
  const label = {
    tsx: 'tsx src/cli.ts remote …',
    node: 'node scripts/kol.mjs remote …',
    pnpm: 'pnpm kol remote …',
    api: 'admin API call, no CLI',
  };
  console.log(
    `${runs} pointer moves per row (alternating remote rollback / remote promote), ` +
      `${os.cpus().length} CPUs, embedded PGlite`,
  );
  const heads = ['min', 'median', 'p95'].map((head) => head.padStart(8)).join(' ');
  console.log(
    `${'from the start of'.padEnd(30)}   ${'to the registry answering'.padEnd(26)}   to the command's exit`,
  );
  console.log(`${''.padEnd(30)}   ${heads}   ${heads}`);
  for (const { mode, visible, exited } of results) {
    const v = stats(visible);
    const e = stats(exited);
    console.log(
      `${label[mode].padEnd(30)}   ${ms(v.min)} ${ms(v.median)} ${ms(v.p95)}   ` +
        `${ms(e.min)} ${ms(e.median)} ${ms(e.p95)}`,
    );
  }
} finally {
  stopAll();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await rm(dataDir, { recursive: true, force: true });
}
