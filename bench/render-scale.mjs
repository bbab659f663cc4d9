#!/usr/bin/env node
// How many comic videos an installation renders, for the deployment page (docs/deploy.md):
// 1, 2 and 4 comic videos started at once, with 1 and with 2 worker processes, on PostgreSQL
// and an S3-protocol server (s3rver, in this process), as a scaled-out installation runs them:
// one API process that renders nothing (VIDEO_WORKERS_IN_PROCESS=false) and separate worker
// processes (`pnpm --filter @kol/server worker`, each with its default concurrency, one job
// per core). Prints, per run, the wall time of each video from gen_video to done and videos
// per hour. A first round of videos (two per worker) warms the workers up and is not counted.
//
//   node bench/render-scale.mjs [--database postgres://root@127.0.0.1:5432/test]
//                               [--workers 1,2] [--videos 1,2,4]
//
// Each configuration gets a fresh database in that PostgreSQL (dropped after) and a fresh
// bucket. The text is video-quality.mjs's: thirteen sentences, about 50 seconds spoken.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, waitFor } from './lib/net.mjs';
import { demoSession } from './lib/product.mjs';
import { STORY } from './lib/story.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The server's own dependencies: the bench is no package of its own.
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));
const { Client } = serverRequire('pg');
const S3rver = serverRequire('s3rver');

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'postgres://root@127.0.0.1:5432/test' },
    workers: { type: 'string', default: '1,2' },
    videos: { type: 'string', default: '1,2,4' },
  },
});
const workerCounts = values.workers.split(',').map(Number);
const videoCounts = values.videos.split(',').map(Number);

const children = new Set();
const stopAll = () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  children.clear();
};
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

function start(args, env) {
  const child = spawn('pnpm', ['--silent', '--filter', '@kol/server', ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  children.add(child);
  return child;
}

/** One configuration: fresh database and bucket, one API process, `workers` worker processes. */
async function installation(workers) {
  const name = `kol_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: values.database });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(values.database);
  url.pathname = `/${name}`;
  const s3Dir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-s3-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'kol-bench', configs: [] }],
  });
  const { port: s3Port } = await s3.run();
  const token = randomBytes(16).toString('hex');
  const env = {
    DATABASE_URL: url.toString(),
    MEDIA_STORE: 's3',
    S3_BUCKET: 'kol-bench',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    KOL_ADMIN_TOKEN: token,
    WARM_UP_LIBRARIES: 'false',
  };
  const port = await freePort();
  const dirs = [s3Dir];
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-'));
    dirs.push(dir);
    return dir;
  };
  start(['start'], {
    ...env,
    PORT: String(port),
    DATA_DIR: await dataDir(),
    VIDEO_WORKERS_IN_PROCESS: 'false',
    AUTO_PUBLISH_REMOTES: 'false',
    SEED_DEMO: 'true',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`, 120_000);
  for (let i = 0; i < workers; i += 1) start(['worker'], { ...env, DATA_DIR: await dataDir() });
  return {
    base,
    token,
    async close() {
      stopAll();
      await s3.close();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const again = new Client({ connectionString: values.database });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function grantComics(base, token, count) {
  const response = await fetch(`${base}/api/admin/quotas/grant`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', type: 'comics', gen: count, reward: 0, merge: 0 }),
  });
  const envelope = await response.json();
  if (envelope.code !== 0) throw new Error(`quota grant: ${envelope.code} ${envelope.msg}`);
}

/** `count` comic videos started at once; each one's time from gen_video to done. */
async function renderAtOnce(call, count) {
  const works = [];
  for (let i = 0; i < count; i += 1) {
    works.push(
      (await call('POST', '/api/video/save_text', { type: 0, title: `信 ${i + 1}`, text: STORY }))
        .workId,
    );
  }
  const started = Date.now();
  const tasks = await Promise.all(
    works.map(async (workId) => (await call('POST', '/api/video/gen_video', { workId })).taskId),
  );
  const done = new Map();
  while (done.size < tasks.length) {
    for (const taskId of tasks) {
      if (done.has(taskId)) continue;
      const result = await call(
        'GET',
        `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
      );
      if (result.state === 'failed') throw new Error(`a video failed: ${result.error}`);
      if (result.state === 'succeeded')
        done.set(taskId, { ms: Date.now() - started, length: result.durationMs });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { wallMs: Date.now() - started, videos: [...done.values()] };
}

const rows = [];
for (const workers of workerCounts) {
  const product = await installation(workers);
  try {
    await grantComics(
      product.base,
      product.token,
      videoCounts.reduce((a, b) => a + b, 2 * workers),
    );
    const { call } = await demoSession(product.base);
    // Two videos per worker first, not counted: each worker makes the built-in music and loads
    // its fonts at its first video, which a running installation has long done.
    await renderAtOnce(call, 2 * workers);
    for (const count of videoCounts) {
      const { wallMs, videos } = await renderAtOnce(call, count);
      const times = videos.map((video) => video.ms / 1000).sort((a, b) => a - b);
      rows.push({
        'worker processes': workers,
        'videos at once': count,
        'video length (s)': (videos[0].length / 1000).toFixed(1),
        'per video, first done (s)': times[0].toFixed(1),
        'per video, last done (s)': times.at(-1).toFixed(1),
        'all done (s)': (wallMs / 1000).toFixed(1),
        'videos per hour': Math.round((count / wallMs) * 3_600_000),
      });
      console.error(
        `[bench] ${workers} worker(s), ${count} video(s): ${(wallMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await product.close();
  }
}
console.log(
  `comic videos rendered by separate worker processes (default concurrency: ${os.availableParallelism()} job(s) each) on a ${os.availableParallelism()}-core machine, media on s3rver, PostgreSQL`,
);
console.table(rows);
process.exit(0);
