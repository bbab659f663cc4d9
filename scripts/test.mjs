#!/usr/bin/env node
// `pnpm test`: the whole suite, as CI runs it (.ci/run). Plain Node, no dependencies.
//
// Two lanes side by side, one per core of a 2-core machine (one jest process or webpack build
// keeps about one core; a third job beside them was seen to stretch the page tests past their
// limits). Each lane runs its jobs in order; the jobs are split so both lanes take about as long:
//   1. the unit tests of every front end and the SDK, then the server's tests on PGlite;
//   2. lint, type-check, the builds the end-to-end tests start the product with
//      (`scripts/start.mjs --build-only`), the end-to-end tests on them, then the server's tests
//      on PostgreSQL when TEST_DATABASE_URL is set.
// (Measured in CI on 2026-11-27 with the host's, user's and writing's unit tests in lane 2:
// lane 1 1,569 s, lane 2 1,676 s. The end-to-end tests then grew by the Node 24 pass and the
// audit of the work routes, about 50 s, and those unit tests, about 109 s, came back to lane 1.)
// The first job to fail stops both lanes. Each job's output is kept and printed whole when it
// ends, so the lanes never interleave their lines.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const LANES = [
  [
    {
      name: 'unit tests of the SDK, the video and the works remotes',
      commands: [unitTests(['@kol/shared-sdk', '@kol/mfe-video', '@kol/mfe-works'])],
    },
    {
      name: 'unit tests of the host, the user and the writing remotes',
      commands: [unitTests(['@kol/host-shell', '@kol/mfe-user', '@kol/mfe-writing'])],
    },
    {
      name: 'server tests on PGlite',
      commands: [[...pnpm, '--filter', '@kol/server', 'test:pglite']],
    },
  ],
  [
    { name: 'lint', commands: [[...pnpm, 'lint']] },
    { name: 'type-check', commands: [[...pnpm, 'typecheck']] },
    {
      name: 'builds for the end-to-end tests',
      commands: [[process.execPath, path.join(ROOT, 'scripts', 'start.mjs'), '--build-only']],
    },
    { name: 'end-to-end tests', commands: [[...pnpm, '--filter', '@kol/e2e', 'test']] },
    ...(process.env.TEST_DATABASE_URL
      ? [
          {
            name: 'server tests on PostgreSQL',
            commands: [[...pnpm, '--filter', '@kol/server', 'test:postgres']],
          },
        ]
      : []),
  ],
];

const children = new Set();
let stopping = false;

/** Runs one command of a job, its output into `chunks`. */
function runCommand(command, chunks) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
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
  let code = 0;
  for (const command of job.commands) {
    code = await runCommand(command, chunks);
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

async function runLane(jobs) {
  for (const job of jobs) {
    if (stopping) return;
    running.add(job.name);
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
  }
}

log(
  `two lanes side by side: ${LANES.map((jobs) => jobs.map((job) => job.name).join(' → ')).join(' ‖ ')}`,
);
await Promise.all(LANES.map(runLane));
clearInterval(heartbeat);
// Stopped: stopAll's timer ends the run once what is left of the other jobs is gone.
if (stopping) await new Promise(() => {});
log(`every job passed in ${seconds(Date.now() - startedAll)}:`);
for (const { job, ms } of summary) log(`  ${job.name}: ${seconds(ms)}`);
