import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import S3rver from 's3rver';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { createUserOn, grantQuotaOn, launchBrowser, newPage, signIn } from '../support/platform';
import { startPlatform, type StartedPlatform } from '../support/start-platform';
import { until } from '../support/waits';
// The scrapes are read as the server's own tests read them (a parser from the registry).
import { metricValue, scrape } from '../../server/test/helpers/scrape';

/**
 * Beyond one machine (issue 20): PostgreSQL, an S3-protocol server, two API processes and two
 * worker processes, each with a data folder of its own as on separate machines. Needs the
 * PostgreSQL of TEST_DATABASE_URL (a fresh database is made in it); skipped without one.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const describeOnPostgres = PG_URL ? describe : describe.skip;

const REPO = path.resolve(__dirname, '..', '..');
const BUCKET = 'kol-scale';
const ADMIN_TOKEN = randomBytes(24).toString('hex');
/** A story long enough that a worker is still busy with it when the test stops that worker. */
const STORY = [
  '林舟是雾港最后一个邮差。',
  '每天清晨，他背着旧皮包穿过湿漉漉的石板街。',
  '港口的雾从不散去，灯塔早已熄灭多年。',
  '这天他收到一封没有寄件人的信。',
  '信封上只写着：交给灯塔守望人。',
  '可灯塔守望人十年前就失踪了。',
  '林舟站在码头，望着雾里若隐若现的塔影。',
  '他决定在天黑之前把信送到。',
  '小船在浪里摇晃，雾越来越浓。',
  '塔门虚掩着，里面传来微弱的灯光。',
  '一个白发老人坐在窗前，手里握着一盏油灯。',
  '老人接过信，轻声说：我等了整整十年。',
].join('');

interface Worker {
  child: ChildProcess;
  dataDir: string;
  output: string;
  /** The runner id the worker logs at its start (the task row names the runner holding it). */
  runnerId(): string | null;
  /** Its /metrics, as it logs it at its start. */
  metricsUrl(): string | null;
}

let s3: S3rver;
let s3Dir = '';
let databaseUrl = '';
let databaseName = '';
let api1: StartedPlatform;
let api2: StartedPlatform;
const workers: Worker[] = [];
let browser: Browser;
let adminDir = '';

function commonEnv(s3Port: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    MEDIA_STORE: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    KOL_ADMIN_TOKEN: ADMIN_TOKEN,
    // Short, so the takeover after a worker dies fits in a test.
    VIDEO_TASK_LEASE_MS: '4000',
    WARM_UP_LIBRARIES: 'false',
  };
}

function startWorker(env: Record<string, string>): Worker {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kol-worker-'));
  const child = spawn('pnpm', ['--filter', '@kol/server', 'worker'], {
    cwd: REPO,
    env: {
      ...process.env,
      ...env,
      DATA_DIR: dataDir,
      VIDEO_WORKER_CONCURRENCY: '1',
      // Its own ops listener on a free port: how a worker is scraped.
      METRICS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: killed whole, as a machine that goes away.
    detached: true,
  });
  const worker: Worker = {
    child,
    dataDir,
    output: '',
    runnerId: () => /"runner":"([0-9a-f-]{36})"/.exec(worker.output)?.[1] ?? null,
    metricsUrl: () => /"metrics":"(http:[^"]+)"/.exec(worker.output)?.[1] ?? null,
  };
  child.stdout?.on('data', (chunk: Buffer) => (worker.output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (worker.output += chunk.toString()));
  workers.push(worker);
  return worker;
}

/** An API call on one process with the page's session (cookies go to every port of a host). */
async function call<T>(page: Page, base: string, url: string, body?: object): Promise<T> {
  const response =
    body === undefined
      ? await page.request.get(`${base}${url}`)
      : await page.request.post(`${base}${url}`, { data: body, headers: { platform: 'pc' } });
  const envelope = (await response.json()) as { code: number; msg?: string; data: T };
  if (envelope.code !== 0) throw new Error(`${url} answered ${envelope.code}: ${envelope.msg}`);
  return envelope.data;
}

/** Files below a folder, relative to it ([] when it does not exist). */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describeOnPostgres('several API and worker processes on PostgreSQL and an object store', () => {
  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(tmpdir(), 'kol-s3-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port: s3Port } = (await s3.run()) as unknown as { port: number };

    databaseName = `kol_scale_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(PG_URL ?? '');
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();

    const env = commonEnv(s3Port);
    // API 1 makes the database's tables and the demo data and releases the workspace's remotes
    // into the store; API 2 serves what API 1 released. Neither renders: the workers do. Once
    // API 1 answers, API 2 and the workers start side by side, as machines of one installation
    // would.
    api1 = await startPlatform({
      ...env,
      VIDEO_WORKERS_IN_PROCESS: 'false',
      AUTO_PUBLISH_REMOTES: 'true',
      SEED_DEMO: 'true',
    });
    startWorker(env);
    startWorker(env);
    api2 = await startPlatform({
      ...env,
      VIDEO_WORKERS_IN_PROCESS: 'false',
      AUTO_PUBLISH_REMOTES: 'false',
      SEED_DEMO: 'false',
    });
    await until(
      'both workers to start',
      async () => workers.every((w) => w.runnerId()),
      180_000,
    ).catch((error: unknown) => {
      // What the workers printed is the only account of why one did not start.
      const accounts = workers.map(
        (w, i) => `worker ${i + 1} (exit ${w.child.exitCode ?? 'none'}):\n${w.output.slice(-4000)}`,
      );
      throw new Error(`${String(error)}\n${accounts.join('\n')}`);
    });
    adminDir = mkdtempSync(path.join(tmpdir(), 'kol-admin-'));
    writeFileSync(path.join(adminDir, 'admin-token'), ADMIN_TOKEN);
    browser = await launchBrowser();
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    for (const worker of workers) {
      try {
        if (worker.child.pid && worker.child.exitCode === null)
          process.kill(-worker.child.pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
    }
    await api2?.stop();
    await api1?.stop();
    await s3?.close();
    if (databaseName) {
      const admin = new Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    for (const dir of [s3Dir, adminDir, ...workers.map((w) => w.dataDir)]) {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('renders a comic video on the workers, followed on the other API, resumed after a worker dies, served with a range', async () => {
    const platform = { url: api1.url, dataDir: adminDir };
    const { username, password } = await createUserOn(platform, {
      templateIds: '0,1,2,3,4,5,6',
    });
    await grantQuotaOn(platform, username, 'comics', { gen: 1 });

    // Signed in on API 1: a picture uploaded, a comic work with a role drawn from it, started.
    const { context, page } = await newPage(browser, undefined, api1.url);
    await signIn(page, username, password);
    const upload = await page.request.post(`${api1.url}/api/file/upload_image`, {
      multipart: {
        file: {
          name: 'lin.png',
          mimeType: 'image/png',
          // A 1×1 PNG.
          buffer: Buffer.from(
            'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
            'base64',
          ),
        },
      },
      headers: { platform: 'pc' },
    });
    const uploaded = ((await upload.json()) as { data: { url: string } }).data;
    expect(uploaded.url).toMatch(/^\/uploads\//);
    // Another API process serves it: it is in the store, not on API 1's disk.
    expect((await page.request.get(`${api2.url}${uploaded.url}`)).status()).toBe(200);

    const title = `雾港邮差 ${username}`;
    const { workId } = await call<{ workId: number }>(page, api1.url, '/api/video/save_text', {
      type: 0,
      title,
      text: STORY,
    });
    const roleTask = await call<{ taskId: string }>(page, api1.url, '/api/role/init_task', {
      type: 0,
      workId,
    });
    await call(page, api1.url, '/api/role/add', {
      taskId: roleTask.taskId,
      name: '林舟',
      description: '年轻的邮差，背着旧皮包',
      referenceImageUrl: uploaded.url,
    });
    const { taskId } = await call<{ taskId: string }>(page, api1.url, '/api/video/gen_video', {
      workId,
    });

    // The progress, followed on API 2 in the same browser (a cookie is the host's, whatever
    // the port: the session API 1 made is valid on API 2, as behind one load balancer).
    const watcher = await context.newPage();
    await watcher.goto(`${api2.url}/video/production?workId=${workId}`);
    const card = watcher.getByRole('group', { name: `生成任务 ${title}` });
    await card.waitFor();

    // The worker holding the task dies mid-task; the other one finishes it.
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    let survivor: Worker | undefined;
    try {
      // Killed while a stage runs, not between two (a kill between stages leaves nothing to run
      // again): the holder is frozen (SIGSTOP) first, so that what the database says it runs
      // cannot change any more, and thawed to try again when it was between stages.
      const runningStage = async (runner: string) =>
        (
          await db.query<{ name: string }>(
            `SELECT s.name FROM video_task_stages s JOIN video_tasks t ON t.id = s.task_id
              WHERE s.task_id = $1 AND s.state = 'running' AND t.runner_id = $2`,
            [taskId, runner],
          )
        ).rows[0]?.name;
      const dying = await until(
        'a worker to be frozen in a stage of the task',
        async () => {
          const row = await db.query<{ runner_id: string | null; state: string }>(
            'SELECT runner_id, state FROM video_tasks WHERE id = $1',
            [taskId],
          );
          const runner = row.rows[0]?.runner_id;
          if (row.rows[0]?.state !== 'running' || !runner || !(await runningStage(runner))) {
            return null;
          }
          const holder = workers.find((worker) => worker.runnerId() === runner);
          const pid = holder?.child.pid;
          if (!holder || !pid) throw new Error(`no worker runs ${runner}`);
          process.kill(-pid, 'SIGSTOP');
          // A query the worker sent just before it stopped still lands: let it.
          await new Promise((resolve) => setTimeout(resolve, 500));
          if (await runningStage(runner)) return { worker: holder, pid };
          process.kill(-pid, 'SIGCONT');
          return null;
        },
        180_000,
        100,
      );
      process.kill(-dying.pid, 'SIGKILL');
      survivor = workers.find((worker) => worker !== dying.worker);

      await card.getByText('已完成', { exact: true }).waitFor({ timeout: 240_000 });
      const finished = await db.query<{ runner_id: string | null; state: string }>(
        'SELECT runner_id, state FROM video_tasks WHERE id = $1',
        [taskId],
      );
      expect(finished.rows[0]?.state).toBe('succeeded');
      // The survivor took the task over once the dead worker's lease ran out, and ran again
      // only the stage that was cut off.
      expect(survivor?.output).toMatch(
        new RegExp(
          `resuming video tasks whose runner or job was lost.*${taskId}|${taskId}.*resuming video tasks`,
        ),
      );
      const stages = await db.query<{ name: string; attempts: number; state: string }>(
        'SELECT name, attempts, state FROM video_task_stages WHERE task_id = $1',
        [taskId],
      );
      expect(stages.rows.every((stage) => stage.state === 'succeeded')).toBe(true);
      expect(stages.rows.filter((stage) => stage.attempts === 2)).toHaveLength(1);
    } finally {
      await db.end();
    }
    const stageTags = await card.getByLabel('生成阶段').locator('.ant-tag').allTextContents();
    expect(stageTags.map((tag) => tag.replace(/\s+/g, ' ').trim())).toEqual([
      '文案 已完成',
      '分镜 已完成',
      '画面 已完成',
      '配音 已完成',
      '合成 已完成',
    ]);

    // Downloaded through API 1, a byte range as a player asks for it.
    const result = await call<{ videoUrl: string; state: string }>(
      page,
      api1.url,
      `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
    );
    expect(result.state).toBe('succeeded');
    const whole = await page.request.head(`${api1.url}${result.videoUrl}`);
    const size = Number(whole.headers()['content-length']);
    expect(size).toBeGreaterThan(10_000);
    const part = await page.request.get(`${api1.url}${result.videoUrl}`, {
      headers: { range: 'bytes=100-1099' },
    });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toBe(`bytes 100-1099/${size}`);
    expect((await part.body()).length).toBe(1000);

    // Exported by the other API process (issue 34) from what the worker's render recorded:
    // every file of the draft and of the MLT project comes from the bucket.
    await call(page, api2.url, '/api/user/update_user_draft', { draftPath: 'D:/剪映草稿' });
    for (const [format, folder] of [
      ['jianying', 'Resources'],
      ['mlt', 'media'],
    ] as const) {
      const exported = await page.request.get(
        `${api2.url}/api/video/export_project?workId=${workId}&format=${format}`,
      );
      expect(exported.status()).toBe(200);
      const names = Object.keys(unzipSync(new Uint8Array(await exported.body())));
      expect(names.some((name) => name.includes(`/${folder}/shot-001.`))).toBe(true);
      expect(names.some((name) => name.endsWith(`/${folder}/narration.wav`))).toBe(true);
    }

    // Every process is scraped on its own: the task's metrics are on the worker that finished
    // it, the requests on the API that took them.
    const survivorMetrics = await scrape(survivor?.metricsUrl() ?? 'no survivor');
    expect(
      metricValue(survivorMetrics, 'kol_video_tasks_finished_total', {
        type: 'comics',
        state: 'succeeded',
      }),
    ).toBe(1);
    expect(
      metricValue(survivorMetrics, 'kol_video_stage_duration_seconds_count', {
        type: 'comics',
        stage: 'compose',
        outcome: 'succeeded',
      }),
    ).toBe(1);
    expect(metricValue(survivorMetrics, 'kol_video_render_seconds_per_video_second_count')).toBe(1);
    expect(
      metricValue(survivorMetrics, 'kol_media_store_operations_total', {
        area: 'media',
        operation: 'putFile',
        outcome: 'ok',
      }),
    ).toBeGreaterThan(0);
    const metrics1 = await scrape(`${api1.url}/metrics`, ADMIN_TOKEN);
    const metrics2 = await scrape(`${api2.url}/metrics`, ADMIN_TOKEN);
    const started = { route: '/api/video/gen_video', status_code: '200' };
    expect(metricValue(metrics1, 'kol_http_requests_total', started)).toBe(1);
    expect(metricValue(metrics2, 'kol_http_requests_total', started)).toBe(0);
    expect(metricValue(metrics1, 'kol_video_tasks_finished_total')).toBe(0);
    expect(metricValue(metrics1, 'kol_sign_ins_total', { outcome: 'success' })).toBe(1);
    // Read from the database: every process sees the same queue, empty now.
    for (const families of [metrics1, metrics2, survivorMetrics]) {
      expect(metricValue(families, 'kol_video_tasks', { type: 'all', state: 'queued' })).toBe(0);
    }

    // The media is in the bucket; no process kept any of it in its data folder.
    const stored = filesBelow(path.join(s3Dir, BUCKET));
    expect(stored.some((file) => file.includes(taskId) && file.includes('.mp4'))).toBe(true);
    for (const dataDir of [api1.dataDir, api2.dataDir, ...workers.map((w) => w.dataDir)]) {
      expect(filesBelow(path.join(dataDir, 'media'))).toEqual([]);
      expect(filesBelow(path.join(dataDir, 'uploads'))).toEqual([]);
    }
    // The role's picture reached the worker that drew the shots from the bucket (a worker keeps
    // a copy of an upload it read among its copies of stored keys).
    const uploadName = path.basename(uploaded.url);
    expect(
      workers.some((worker) =>
        filesBelow(path.join(worker.dataDir, 'cache', 'copies', 'uploads')).includes(uploadName),
      ),
    ).toBe(true);
    // The worker that finished the task removed its copy of the task's folder.
    const survivorDir = survivor?.dataDir ?? '';
    expect(
      filesBelow(path.join(survivorDir, 'cache', 'media')).filter((f) => f.includes(taskId)),
    ).toEqual([]);
    await context.close();
  });
});
