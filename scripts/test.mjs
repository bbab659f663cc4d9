#!/usr/bin/env node
// `pnpm test`: the whole suite, as CI runs it (.ci/run). Plain Node, no dependencies.
//
// The jobs run two at a time, one per core of a 2-core machine (one jest process or webpack
// build keeps about one core; a third job beside them was seen to stretch the page tests past
// their limits). Whenever a slot frees, it takes the ready job with the longest path to the end
// (its own time plus the jobs waiting on it), from the times CI measured: so the end-to-end tests
// start as soon as their builds are there and the short jobs fill the gaps at the end, so the
// two slots end close together.
// The first job to fail stops the others. Each job's output is kept and printed whole when it
// ends, so parallel jobs never interleave their lines.
//
// Work a clone would redo is taken from the machine's cache (scripts/machine-cache.mjs): the
// builds of unchanged sources (start.mjs) and TypeScript's incremental build info.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restoreFolder, saveFolder } from './machine-cache.mjs';
import { NODE_LTS, nodeLts } from './node-lts.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && path.basename(execPath).includes('pnpm')) {
    return /\.[cm]?js$/.test(execPath) ? [process.execPath, execPath] : [execPath];
  }
  return ['pnpm'];
}
const pnpm = pnpmCommand();

const log = (line) => process.stdout.write(`[test] ${line}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/** The unit tests of these packages, one package at a time. */
const unitTests = (packages) => [
  ...pnpm,
  '--workspace-concurrency=1',
  ...packages.map((name) => `--filter=${name}`),
  'test',
];

const TSC_STATE = path.join(ROOT, 'node_modules', '.cache', 'tsc');

/**
 * Every job: `estimate` is its time in seconds in CI (2026-12-01, a fresh clone with the
 * machine's cache warm), used only to choose the order; `after` names jobs it needs.
 *
 * `onLts`: the job's tools run on the Node LTS (scripts/node-lts.mjs, first in its PATH) rather
 * than the machine's Node. Only for what the product does not run on: lint, the type-check and
 * the front ends' tests in jsdom (their code runs in browsers) took 15–20 % less CPU on Node 24
 * than on Node 20. The server's tests and the end-to-end platform stay on the machine's Node,
 * the one the README promises the product runs on.
 */
const JOBS = [
  { name: 'lint', estimate: 70, onLts: true, commands: [[...pnpm, 'lint']] },
  {
    name: 'type-check',
    estimate: 25,
    onLts: true,
    before: () => restoreFolder('tsc', 'typecheck', 'latest', TSC_STATE),
    afterPass: () => saveFolder('tsc', 'typecheck', 'latest', TSC_STATE),
    commands: [[...pnpm, 'typecheck']],
  },
  {
    name: 'unit tests of the SDK, the video and the works remotes',
    estimate: 320,
    onLts: true,
    commands: [unitTests(['@kol/shared-sdk', '@kol/mfe-video', '@kol/mfe-works'])],
  },
  {
    name: 'unit tests of the host, the user and the writing remotes',
    estimate: 120,
    onLts: true,
    commands: [unitTests(['@kol/host-shell', '@kol/mfe-user', '@kol/mfe-writing'])],
  },
  {
    name: 'server tests on PGlite',
    estimate: 700,
    commands: [[...pnpm, '--filter', '@kol/server', 'test:pglite']],
  },
  {
    name: 'builds for the end-to-end tests',
    estimate: 110,
    commands: [[process.execPath, path.join(ROOT, 'scripts', 'start.mjs'), '--build-only']],
  },
  {
    name: 'end-to-end tests',
    estimate: 700,
    after: ['builds for the end-to-end tests'],
    commands: [[...pnpm, '--filter', '@kol/e2e', 'test']],
  },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'server tests on PostgreSQL',
          estimate: 260,
          commands: [[...pnpm, '--filter', '@kol/server', 'test:postgres']],
        },
      ]
    : []),
];

/** Jobs at once: one per core, at most two (see above); KOL_TEST_SLOTS to choose. */
const SLOTS =
  Number(process.env.KOL_TEST_SLOTS) || Math.min(2, Math.max(1, availableParallelism()));

/** A job's time plus the longest chain of jobs waiting on it: the larger, the sooner it starts. */
function pathToEnd(job) {
  const waiting = JOBS.filter((other) => other.after?.includes(job.name));
  return job.estimate + Math.max(0, ...waiting.map(pathToEnd));
}

const children = new Set();
let stopping = false;

let ltsPath = null;
/**
 * The PATH a job on the Node LTS runs with: its binary's folder first. Fetched once; where it
 * cannot be had, the machine's Node does the job and the run says so.
 */
async function ltsEnvPath(chunks) {
  ltsPath ??= nodeLts(ROOT).then(
    (bin) => `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}`,
    (error) => {
      log(`Node ${NODE_LTS} could not be had (${error.message}): the machine's Node runs its jobs`);
      return null;
    },
  );
  const envPath = await ltsPath;
  if (envPath) chunks.push(Buffer.from(`(tools on Node ${NODE_LTS})\n`));
  return envPath;
}

/** Runs one command of a job, its output into `chunks`. */
function runCommand(command, chunks, envPath) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: {
        ...process.env,
        FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
        ...(envPath ? { PATH: envPath } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so stopping the lanes stops the servers and browsers it started.
      detached: true,
    });
    children.add(child);
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => {
      chunks.push(Buffer.from(`could not run ${command[0]}: ${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Runs a job's commands in order until one fails; its output is printed when it ends. */
async function runJob(job) {
  const started = Date.now();
  const chunks = [];
  const envPath = job.onLts ? await ltsEnvPath(chunks) : null;
  let code = 0;
  for (const command of job.commands) {
    code = await runCommand(command, chunks, envPath);
    if (code !== 0) break;
  }
  const ms = Date.now() - started;
  const output = Buffer.concat(chunks);
  if (stopping) return { job, code, ms, output: '' };
  process.stdout.write(`\n===== ${job.name} =====\n`);
  process.stdout.write(output);
  log(`${job.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(ms)}`);
  return { job, code, ms, output: output.toString('utf8') };
}

/** The pids under `pid` (children, grandchildren, …), read from /proc; none where there is no /proc. */
function descendants(pid) {
  const parents = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * Stops every job still running (the first failure decides the run), then leaves. A job's own
 * process group is not enough: the end-to-end tests start each platform in a group of its own,
 * and a platform left behind kept the job's output open, so the run waited for it until CI's
 * time limit (stop 41). Every process under a job is found first, while the tree is whole, then
 * asked to end, and whatever is left 10 s later is killed.
 */
function stopAll() {
  if (stopping) return;
  stopping = true;
  const pids = [];
  for (const child of children) pids.push(child.pid, ...descendants(child.pid));
  for (const child of children) signal(-child.pid, 'SIGTERM');
  for (const pid of pids) signal(pid, 'SIGTERM');
  setTimeout(() => {
    for (const pid of pids) signal(pid, 'SIGKILL');
    process.exit(1);
  }, 10_000);
}

// Interrupted (Ctrl-C, CI's timeout): the jobs go too.
for (const name of ['SIGINT', 'SIGTERM']) process.on(name, stopAll);

const startedAll = Date.now();
const summary = [];
const running = new Set();
// A line now and then, so a long run is visibly alive in a CI log.
const heartbeat = setInterval(() => log(`still running: ${[...running].join(', ')}`), 60_000);

const pending = [...JOBS].sort((a, b) => pathToEnd(b) - pathToEnd(a));
const passed = new Set();
/** Slots waiting for a running job to end (the next jobs need it). */
const jobEnded = [];

/** Takes the next job whose prerequisites passed, runs it, and so on until none is left. */
async function runSlot() {
  for (;;) {
    if (stopping) return;
    const index = pending.findIndex((job) => (job.after ?? []).every((name) => passed.has(name)));
    if (index === -1) {
      if (pending.length === 0) return;
      // The rest waits on a running job: look again when one ends.
      await new Promise((resolve) => jobEnded.push(resolve));
      continue;
    }
    const [job] = pending.splice(index, 1);
    running.add(job.name);
    job.before?.();
    const result = await runJob(job);
    running.delete(job.name);
    if (stopping) return;
    summary.push(result);
    if (result.code !== 0) {
      // A CI log may keep only the end of the output: the failed tests' names come last again.
      const failures = result.output
        .split('\n')
        .filter((line) => /^(FAIL |\s+● (?!Console))/.test(line));
      for (const line of failures.slice(0, 40)) log(`  ${line.trim()}`);
      log(`failed: ${job.name}; stopping the rest`);
      stopAll();
      return;
    }
    job.afterPass?.();
    passed.add(job.name);
    for (const wake of jobEnded.splice(0)) wake();
  }
}

// Debian's melt, which the MLT export's test renders with, installed beside the jobs (minutes
// of download and unpacking, little CPU) rather than inside the server's suite; the test waits
// for this installer (scripts/ensure-melt.mjs takes turns) when it gets there first. Not among
// the jobs' children: a failed run must not kill dpkg halfway through an install.
const meltLog = [];
const meltInstall = spawn(process.execPath, [path.join(ROOT, 'scripts', 'ensure-melt.mjs')], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
for (const stream of [meltInstall.stdout, meltInstall.stderr]) {
  stream.on('data', (chunk) => meltLog.push(chunk));
}
meltInstall.on('exit', (code) => {
  const last = Buffer.concat(meltLog).toString().trim().split('\n').slice(-1)[0] ?? '';
  log(code === 0 ? last : `melt could not be installed (exit ${code}): ${last}`);
});

log(
  `${JOBS.length} jobs, ${SLOTS} at a time, longest first: ${pending.map((job) => job.name).join(', ')}`,
);
await Promise.all(Array.from({ length: SLOTS }, runSlot));
clearInterval(heartbeat);
// Stopped: stopAll's timer ends the run once what is left of the other jobs is gone.
if (stopping) await new Promise(() => {});
log(`every job passed in ${seconds(Date.now() - startedAll)}:`);
for (const { job, ms } of summary) log(`  ${job.name}: ${seconds(ms)}`);
