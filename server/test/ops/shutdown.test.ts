import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, jest } from '@jest/globals';
import { VIDEO_PROGRESS_STREAM_PATH } from '@kol/shared-sdk/contracts';

// SIGTERM to a real API process (the bundled src/server.ts on its embedded database, as
// `pnpm start` runs it) while it serves an upload and renders a video: it stops being ready and stops taking
// connections, answers the upload, ends the progress stream with a retry hint, gives the render
// back and exits 0; started again on its data, it finishes the video, one count spent.
jest.setTimeout(240_000);

const SERVER_DIR = path.join(__dirname, '..', '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kol-shutdown-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Server {
  child: ChildProcess;
  api: string;
  ops: string;
  output(): string;
  exited: Promise<number | null>;
}

function startServer(): Promise<Server> {
  // What `pnpm start` and production run: the bundle (made first if a source is newer).
  const child = spawn(process.execPath, [path.join('..', 'scripts', 'server.mjs'), 'server'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      SHUTDOWN_GRACE_SECONDS: '0',
      SEED_DEMO: 'true',
      AUTO_PUBLISH_REMOTES: 'false',
      WARM_UP_LIBRARIES: 'false',
      VIDEO_RENDER_PERCENT: '25',
      LOG_LEVEL: 'info',
      KOL_ADMIN_TOKEN: 'shutdown-test-token',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const api = /KOL Studio: (http:\/\/[^/\s]+)\//.exec(output)?.[1];
      const ops = /Metrics: (http:\/\/[^/\s]+)\/metrics/.exec(output)?.[1];
      if (api && ops) resolve({ child, api, ops, output: () => output, exited });
    });
    void exited.then((code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

async function until<T>(what: string, probe: () => Promise<T | null | false>, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function signIn(api: string): Promise<string> {
  const response = await fetch(`${api}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', platform: 'pc' },
    body: JSON.stringify({ username: 'demo', password: 'demo123456' }),
  });
  const cookie = /kol_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`no session: ${response.status}`);
  return cookie;
}

async function call<T>(api: string, cookie: string, url: string, body?: object): Promise<T> {
  const response = await fetch(`${api}${url}`, {
    method: body ? 'POST' : 'GET',
    headers: { cookie, platform: 'pc', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json()) as { code: number; data: T; msg: string };
  if (json.code !== 0) throw new Error(`${url}: ${json.code} ${json.msg}`);
  return json.data;
}

const comicsGen = async (api: string, cookie: string) =>
  (await call<{ remainGenCount: number }>(api, cookie, '/api/user/get_user_limit_info'))
    .remainGenCount;

/** A 1×1 PNG, uploaded as multipart in two halves with the signal in between. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

it('drains at SIGTERM: the upload in flight answers, the stream ends, the render resumes after a restart', async () => {
  const first = await startServer();
  const cookie = await signIn(first.api);
  const countBefore = await comicsGen(first.api, cookie);
  const { workId } = await call<{ workId: number }>(first.api, cookie, '/api/video/save_text', {
    type: 0,
    title: '停机不丢',
    // The signal comes early in the render (its pictures): stages are left to give back.
    text: '雾港的清晨很安静。林舟背着旧皮包出门。他要去灯塔送一封信。小船在浪里摇晃。塔门虚掩着。老人接过了信。',
  });
  const { taskId } = await call<{ taskId: string }>(first.api, cookie, '/api/video/gen_video', {
    workId,
  });

  // The page following the render.
  let stream = '';
  const streamEnded = new Promise<void>((resolve) => {
    http.get(
      `${first.api}${VIDEO_PROGRESS_STREAM_PATH}?workId=${workId}`,
      { headers: { cookie } },
      (response) => {
        response.on('data', (chunk: Buffer) => (stream += chunk.toString()));
        response.on('end', resolve);
      },
    );
  });
  await until('the render to run', async () => stream.includes('"state":"running"'));

  // An upload whose body is half sent when the signal comes.
  const boundary = 'kolshutdownboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, PNG, tail]);
  const half = Math.floor(body.length / 2);
  let answer = '';
  const upload = new Promise<number>((resolve, reject) => {
    const request = http.request(
      `${first.api}/api/file/upload_image`,
      {
        method: 'POST',
        headers: {
          cookie,
          platform: 'pc',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      },
      (response) => {
        response.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.write(body.subarray(0, half));
    setTimeout(() => {
      first.child.kill('SIGTERM');
    }, 300);
    void until('the server to stop taking connections', async () => {
      await fetch(`${first.api}/healthz`).then(
        () => false,
        () => true,
      );
      return fetch(`${first.api}/healthz`).then(
        () => false,
        () => true,
      );
    }).then(() => request.end(body.subarray(half)));
  });

  // Not ready from the signal on, on the ops listener that stays up until the end.
  const draining = await until('readiness to say draining', async () => {
    const response = await fetch(`${first.ops}/readyz`);
    return response.status === 503 ? ((await response.json()) as { status: string }) : null;
  });
  expect(draining).toEqual({ status: 'draining' });

  expect(await upload).toBe(200);
  expect(JSON.parse(answer)).toMatchObject({
    code: 0,
    data: { url: expect.stringMatching(/^\/uploads\//) },
  });
  await streamEnded;
  expect(stream).toContain('retry: 1000');
  expect(await first.exited).toBe(0);
  expect(first.output()).toMatch(/video task given back at shutdown/);

  // Started again on the same data: the render resumes and finishes, one count spent.
  const second = await startServer();
  const again = await signIn(second.api);
  const result = await until(
    'the resumed video',
    async () => {
      const work = await call<{ state: string; videoUrl: string | null }>(
        second.api,
        again,
        `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
      );
      return work.state === 'succeeded' ? work : null;
    },
    180_000,
  );
  expect(result.videoUrl).toBeTruthy();
  expect(await comicsGen(second.api, again)).toBe(countBefore - 1);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
