// How long the README's start command takes to serve: a first start on an empty data folder and
// a restart on the same folder, each until `/healthz` answers, with every build already current
// (the script builds what changed first, once, and does not count that).
//
//   node bench/startup.mjs [--runs 3]
//
// Each run uses a fresh data folder for its first start, then restarts on it. Prints min and
// median of both, and the log lines the server printed with their times on the first run.
// Then the API process alone, restarted on a data folder made once, run the two ways it can be:
// from the TypeScript sources through tsx (`pnpm --filter @kol/server dev`, as every start did
// before the production bundle) and from its bundle with plain node (`start`): the time until
// /healthz answers and the process's resident memory then.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './lib/net.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);

/** Starts the product on `dataDir`, answers the ms until /healthz answered, then stops it. */
async function start(dataDir, { lines } = {}) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  const log = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() && lines)
        lines.push(`${String(Date.now() - started).padStart(6)} ms  ${line}`);
    }
  };
  child.stdout.on('data', log);
  child.stderr.on('data', log);
  let ms = null;
  while (ms === null) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) ms = Date.now() - started;
    } catch {
      // not listening yet
    }
    if (ms === null) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

// Builds current first: the first start of a fresh clone builds, which is not what is measured.
const warm = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-start-'));
await start(warm);
await rm(warm, { recursive: true, force: true });

const first = [];
const again = [];
const lines = [];
for (let i = 0; i < runs; i += 1) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-start-'));
  first.push(await start(dataDir, i === 0 ? { lines } : {}));
  again.push(await start(dataDir));
  await rm(dataDir, { recursive: true, force: true });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\nStart until /healthz answers, builds current, ${runs} runs\n`);
console.table([
  {
    start: 'first (empty data folder)',
    min: `${Math.min(...first)} ms`,
    median: `${median(first)} ms`,
  },
  {
    start: 'restart (same folder)',
    min: `${Math.min(...again)} ms`,
    median: `${median(again)} ms`,
  },
]);
console.log('\nWhat the first run printed, with its time since the command started:\n');
console.log(lines.join('\n'));

/**
 * The resident memory of `pid` and every process under it, in MB (Linux): tsx runs the server
 * in a child process of its own, so the process started is not the one that serves.
 */
function residentMb(pid) {
  const parents = new Map();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  let kb = 0;
  for (const member of tree) {
    try {
      const status = readFileSync(`/proc/${member}/status`, 'utf8');
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/** One API process on `dataDir` run as `command`: ms until /healthz answered, and its memory. */
async function apiProcess(command, dataDir) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: path.join(root, 'server'),
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  let ms = null;
  while (ms === null) {
    if (child.exitCode !== null)
      throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) ms = Date.now() - started;
    } catch {
      // not listening yet
    }
    if (ms === null) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const mb = residentMb(child.pid);
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { ms, mb };
}

const WAYS = {
  'sources through tsx (dev)': [
    path.join(root, 'server', 'node_modules', '.bin', 'tsx'),
    'src/server.ts',
  ],
  'bundle with node (start)': [
    process.execPath,
    path.join(root, 'scripts', 'server.mjs'),
    'server',
  ],
};
const apiData = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-api-'));
// Made once (migrations, the demo, the releases) and the bundle made, neither counted.
await apiProcess(WAYS['bundle with node (start)'], apiData);
const measured = Object.fromEntries(Object.keys(WAYS).map((way) => [way, []]));
for (let i = 0; i < runs; i += 1) {
  // Alternated, so a busy moment of the machine falls on both.
  for (const [way, command] of Object.entries(WAYS))
    measured[way].push(await apiProcess(command, apiData));
}
await rm(apiData, { recursive: true, force: true });
console.log(`\nThe API process alone, restarted on one data folder, ${runs} runs each\n`);
console.table(
  Object.entries(measured).map(([way, results]) => ({
    'run as': way,
    'until /healthz, median': `${median(results.map((r) => r.ms))} ms`,
    min: `${Math.min(...results.map((r) => r.ms))} ms`,
    'resident memory then, median': `${median(results.map((r) => r.mb)).toFixed(0)} MB`,
  })),
);
