#!/usr/bin/env node
// `pnpm test`: the whole suite, as CI runs it (.ci/run). Plain Node, no dependencies.
//
// Three stages, each a set of jobs that do not need each other and so run side by side, one
// job per core of a 2-core machine (one jest process or webpack build keeps about one core):
//   1. type-check and lint;
//   2. the packages' unit tests (one package at a time), beside the server's tests on PGlite
//      and then, when TEST_DATABASE_URL is set, on PostgreSQL, followed by the builds the
//      end-to-end tests start the product with (`scripts/start.mjs --build-only`);
//   3. the end-to-end tests, on those builds.
// A stage starts only when every job of the one before passed. Each job's output is kept and
// printed whole when it ends, so parallel jobs never interleave their lines.
import { spawn } from 'node:child_process';
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

const STAGES = [
  [
    { name: 'type-check', commands: [[...pnpm, 'typecheck']] },
    { name: 'lint', commands: [[...pnpm, 'lint']] },
  ],
  [
    {
      // Two chains, one per core (a third job beside them was seen to stretch the page tests
      // past their limits on 2 cores). The builds follow the server's tests, the shorter chain.
      name: 'unit tests of the apps and the SDK',
      commands: [
        [
          ...pnpm,
          '-r',
          '--workspace-concurrency=1',
          '--filter=!@kol/e2e',
          '--filter=!@kol/server',
          'test',
        ],
      ],
    },
    {
      name: `server tests on PGlite${process.env.TEST_DATABASE_URL ? ', then on PostgreSQL' : ''}, then the builds for the end-to-end tests`,
      commands: [
        [...pnpm, '--filter', '@kol/server', 'test:pglite'],
        ...(process.env.TEST_DATABASE_URL
          ? [[...pnpm, '--filter', '@kol/server', 'test:postgres']]
          : []),
        [process.execPath, path.join(ROOT, 'scripts', 'start.mjs'), '--build-only'],
      ],
    },
  ],
  [{ name: 'end-to-end tests', commands: [[...pnpm, '--filter', '@kol/e2e', 'test']], live: true }],
];

/** Runs one command of a job, its output into `chunks` (or this terminal when `live`). */
function runCommand(command, chunks, live) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
    });
    if (!live) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('error', (error) => {
      chunks.push(Buffer.from(`could not run ${command[0]}: ${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a job's commands in order until one fails; its output is printed when it ends. */
async function runJob(job) {
  const started = Date.now();
  const chunks = [];
  let code = 0;
  for (const command of job.commands) {
    code = await runCommand(command, chunks, job.live);
    if (code !== 0) break;
  }
  const ms = Date.now() - started;
  if (!job.live) {
    process.stdout.write(`\n===== ${job.name} =====\n`);
    process.stdout.write(Buffer.concat(chunks));
  }
  log(`${job.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(ms)}`);
  return { job, code, ms };
}

const startedAll = Date.now();
const summary = [];
for (const stage of STAGES) {
  log(`running side by side: ${stage.map((job) => job.name).join(', ')}`);
  // A line now and then, so a long stage is visibly alive in a CI log.
  const running = new Set(stage.map((job) => job.name));
  const heartbeat = setInterval(() => log(`still running: ${[...running].join(', ')}`), 60_000);
  const results = await Promise.all(
    stage.map((job) =>
      runJob(job).then((result) => {
        running.delete(job.name);
        return result;
      }),
    ),
  );
  clearInterval(heartbeat);
  summary.push(...results);
  const failed = results.filter((result) => result.code !== 0);
  if (failed.length > 0) {
    log(`failed: ${failed.map((result) => result.job.name).join(', ')}`);
    process.exit(1);
  }
}
log(`every stage passed in ${seconds(Date.now() - startedAll)}:`);
for (const { job, ms } of summary) log(`  ${job.name}: ${seconds(ms)}`);
