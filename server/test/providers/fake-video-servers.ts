import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { VideoProviderConfig } from '../../src/config';
import { runFfmpeg } from '../../src/video/engine/ffmpeg';

/**
 * Loopback image-to-video services that speak the real protocols and really make the clip:
 * ffmpeg turns the uploaded picture into a video in which a white square crosses the frame
 * (so a test can tell a clip from a still: its frames differ within a shot). Clips are made
 * at a quarter of the asked size, to keep the tests quick; the compose covers any size.
 */

interface Loopback {
  baseUrl: string;
  close(): Promise<void>;
}

async function listen(
  handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
): Promise<Loopback> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, Buffer.concat(chunks), res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sendJson = (
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** A request body as the Fetch API parses it (multipart or urlencoded). */
async function formOf(req: http.IncomingMessage, body: Buffer): Promise<FormData> {
  return new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: new Uint8Array(body),
  }).formData();
}

/** Makes the clip: the picture covering the frame, a white square crossing it. */
export async function clipFromPicture(
  picture: Buffer,
  seconds: number,
  width: number,
  height: number,
  fps = 30,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kol-fake-video-'));
  try {
    const input = path.join(dir, 'picture');
    const output = path.join(dir, 'clip.mp4');
    await writeFile(input, picture);
    const w = Math.max(32, Math.round(width / 4 / 2) * 2);
    const h = Math.max(32, Math.round(height / 4 / 2) * 2);
    const box = Math.max(8, Math.round(w / 6));
    await runFfmpeg([
      '-loop',
      '1',
      '-i',
      input,
      '-f',
      'lavfi',
      '-i',
      `color=c=white:s=${box}x${box}`,
      '-filter_complex',
      `[0:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1[bg];` +
        `[bg][1:v]overlay=x='(W-w)*t/${seconds}':y='(H-h)/3':shortest=1,format=yuv420p`,
      '-r',
      String(fps),
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-movflags',
      '+faststart',
      output,
    ]);
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How the fake OpenAI videos service answers one `POST /v1/videos`. */
export type VideoBehaviour =
  | { type: 'ok' }
  /** Refused at once with this status and the service's error body (`retryAfter`: seconds). */
  | { type: 'error'; status: number; message: string; code?: string; retryAfter?: number }
  /** Accepted, then the job fails with this error (as a moderation block does). */
  | { type: 'failed'; code: string; message: string }
  /** Accepted, and never finishes. */
  | { type: 'hang' };

export interface VideoJob {
  id: string;
  prompt: string;
  model: string;
  seconds: string;
  size: string;
  /** The input reference picture as uploaded. */
  reference: Buffer;
  behaviour: VideoBehaviour;
  clip: Promise<Buffer> | null;
  polls: number;
}

export interface FakeVideos extends Loopback {
  /** The API root (…/v1), as VIDEO_BASE_URL takes it. */
  apiUrl: string;
  /** Every `POST /v1/videos`, refused ones too. */
  creates: Array<{
    prompt: string;
    headers: http.IncomingHttpHeaders;
    status: number;
    at: number;
  }>;
  jobs: VideoJob[];
  downloads: string[];
  /** Polls a job stays `queued`, then `in_progress`, before it completes or fails. */
  pendingPolls: number;
  respond: (fields: { prompt: string; seconds: string; size: string }) => VideoBehaviour;
}

/**
 * The OpenAI videos API as the real one answers: `POST /v1/videos` (multipart: prompt, model,
 * seconds, size, input_reference) answers the video object `queued`; `GET /v1/videos/{id}`
 * answers it `in_progress` with a progress, then `completed` (or `failed` with `error`);
 * `GET /v1/videos/{id}/content` answers the MP4. Failures answer `{ error: { message, type,
 * param, code } }`, a 429 with `retry-after`.
 */
export async function startFakeVideos(): Promise<FakeVideos> {
  const fake: FakeVideos = {
    baseUrl: '',
    apiUrl: '',
    creates: [],
    jobs: [],
    downloads: [],
    pendingPolls: 1,
    respond: () => ({ type: 'ok' }),
    close: async () => {},
  };
  let next = 1;
  const videoObject = (job: VideoJob, status: string, extra: Record<string, unknown> = {}) => ({
    id: job.id,
    object: 'video',
    created_at: Math.floor(Date.now() / 1000),
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    expires_at: null,
    error: null,
    model: job.model,
    progress: status === 'completed' ? 100 : status === 'queued' ? 0 : 50,
    prompt: job.prompt,
    remixed_from_video_id: null,
    seconds: job.seconds,
    size: job.size,
    status,
    ...extra,
  });
  const server = await listen((req, raw, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/v1/videos') {
        const form = await formOf(req, raw);
        const fields = {
          prompt: String(form.get('prompt') ?? ''),
          seconds: String(form.get('seconds') ?? '4'),
          size: String(form.get('size') ?? '720x1280'),
        };
        const behaviour = fake.respond(fields);
        const reference = form.get('input_reference');
        if (behaviour.type === 'error') {
          fake.creates.push({
            prompt: fields.prompt,
            headers: req.headers,
            status: behaviour.status,
            at: Date.now(),
          });
          sendJson(
            res,
            behaviour.status,
            {
              error: {
                message: behaviour.message,
                type: behaviour.status === 429 ? 'requests' : 'invalid_request_error',
                param: null,
                code: behaviour.code ?? null,
              },
            },
            behaviour.retryAfter !== undefined
              ? { 'retry-after': String(behaviour.retryAfter) }
              : {},
          );
          return;
        }
        if (!(reference instanceof Blob)) {
          fake.creates.push({
            prompt: fields.prompt,
            headers: req.headers,
            status: 400,
            at: Date.now(),
          });
          sendJson(res, 400, {
            error: {
              message: 'input_reference is required for this test service',
              type: 'invalid_request_error',
              param: 'input_reference',
              code: null,
            },
          });
          return;
        }
        fake.creates.push({
          prompt: fields.prompt,
          headers: req.headers,
          status: 200,
          at: Date.now(),
        });
        const job: VideoJob = {
          id: `video_${String(next++).padStart(6, '0')}`,
          ...fields,
          model: String(form.get('model') ?? 'sora-2'),
          reference: Buffer.from(await reference.arrayBuffer()),
          behaviour,
          clip: null,
          polls: 0,
        };
        if (behaviour.type === 'ok') {
          const [w = 720, h = 1280] = job.size.split('x').map(Number);
          job.clip = clipFromPicture(job.reference, Number(job.seconds), w, h);
          job.clip.catch(() => undefined);
        }
        fake.jobs.push(job);
        sendJson(res, 200, videoObject(job, 'queued'));
        return;
      }
      const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(url.pathname);
      const job = match ? fake.jobs.find((j) => j.id === match[1]) : undefined;
      if (req.method === 'GET' && match && !job) {
        sendJson(res, 404, {
          error: {
            message: `Video with id '${match[1]}' not found.`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
        return;
      }
      if (req.method === 'GET' && job && !match?.[2]) {
        job.polls += 1;
        if (job.behaviour.type === 'hang' || job.polls <= fake.pendingPolls) {
          sendJson(res, 200, videoObject(job, job.polls <= 1 ? 'queued' : 'in_progress'));
          return;
        }
        if (job.behaviour.type === 'failed') {
          sendJson(
            res,
            200,
            videoObject(job, 'failed', {
              error: { code: job.behaviour.code, message: job.behaviour.message },
            }),
          );
          return;
        }
        await job.clip;
        sendJson(res, 200, videoObject(job, 'completed'));
        return;
      }
      if (req.method === 'GET' && job && match?.[2]) {
        fake.downloads.push(job.id);
        const clip = job.clip ? await job.clip : null;
        if (!clip) {
          sendJson(res, 404, {
            error: {
              message: 'Video is not ready yet.',
              type: 'invalid_request_error',
              param: null,
              code: null,
            },
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length });
        res.end(clip);
        return;
      }
      sendJson(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
    })().catch((error: unknown) => {
      sendJson(res, 500, { error: { message: String(error), type: 'server_error' } });
    });
  });
  fake.baseUrl = server.baseUrl;
  fake.apiUrl = `${server.baseUrl}/v1`;
  fake.close = server.close;
  return fake;
}

/** The app's video provider pointed at the fake videos API, polling quickly. */
export function fakeOpenAiVideos(
  fake: FakeVideos,
  overrides: Partial<Extract<VideoProviderConfig, { kind: 'openai' }>> = {},
): Extract<VideoProviderConfig, { kind: 'openai' }> {
  return {
    kind: 'openai',
    baseUrl: fake.apiUrl,
    apiKey: 'sk-test',
    model: 'sora-2',
    portraitSize: '720x1280',
    seconds: [4, 8, 12],
    timeoutMs: 60_000,
    pollMs: 50,
    ...overrides,
  };
}

export interface FakeComfyVideo extends Loopback {
  /** `'executionError'`: the run fails as a missing model does. */
  behaviour: 'ok' | 'executionError';
  uploads: Array<{ name: string; bytes: Buffer }>;
  prompts: Array<{
    id: string;
    prompt: Record<string, { class_type?: string; inputs: Record<string, unknown> }>;
  }>;
  deleted: string[];
}

/**
 * A ComfyUI server that runs an image-to-video workflow the way ComfyUI does with the shipped
 * one: it reads the LoadImage node's uploaded picture, Wan22ImageToVideoLatent's size and
 * length, CreateVideo's fps, makes that clip, and lists it under SaveVideo's `images` with
 * `animated: [true]`, served by `/view`.
 */
export async function startFakeComfyVideo(): Promise<FakeComfyVideo> {
  const fake: FakeComfyVideo = {
    baseUrl: '',
    behaviour: 'ok',
    uploads: [],
    prompts: [],
    deleted: [],
    close: async () => {},
  };
  const outputs = new Map<string, Promise<Buffer>>();
  let next = 1;
  const node = (prompt: FakeComfyVideo['prompts'][number]['prompt'], type: string) =>
    Object.entries(prompt).find(([, n]) => n.class_type === type);
  const server = await listen((req, raw, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/upload/image') {
        const form = await formOf(req, raw);
        const image = form.get('image');
        if (!(image instanceof File)) {
          res.writeHead(400);
          res.end();
          return;
        }
        fake.uploads.push({ name: image.name, bytes: Buffer.from(await image.arrayBuffer()) });
        sendJson(res, 200, { name: image.name, subfolder: '', type: 'input' });
        return;
      }
      if (req.method === 'POST' && url.pathname === '/prompt') {
        const body = JSON.parse(raw.toString()) as {
          prompt: FakeComfyVideo['prompts'][number]['prompt'];
        };
        const id = `10000000-0000-4000-8000-${String(next++).padStart(12, '0')}`;
        fake.prompts.push({ id, prompt: body.prompt });
        const load = node(body.prompt, 'LoadImage')?.[1].inputs;
        const latent = node(body.prompt, 'Wan22ImageToVideoLatent')?.[1].inputs;
        const create = node(body.prompt, 'CreateVideo')?.[1].inputs;
        const upload = fake.uploads.find((u) => u.name === load?.image);
        if (!upload || !latent || !create) {
          sendJson(res, 400, {
            error: {
              type: 'prompt_outputs_failed_validation',
              message: 'Prompt outputs failed validation',
              details: '',
              extra_info: {},
            },
            node_errors: {},
          });
          return;
        }
        if (fake.behaviour === 'ok') {
          const fps = Number(create.fps);
          const clip = clipFromPicture(
            upload.bytes,
            Number(latent.length) / fps,
            Number(latent.width),
            Number(latent.height),
            fps,
          );
          clip.catch(() => undefined);
          outputs.set(`kol_${id}.mp4`, clip);
        }
        sendJson(res, 200, { prompt_id: id, number: next, node_errors: {} });
        return;
      }
      if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
        const id = decodeURIComponent(url.pathname.slice('/history/'.length));
        const prompt = fake.prompts.find((p) => p.id === id)?.prompt ?? {};
        if (fake.behaviour === 'executionError') {
          sendJson(res, 200, {
            [id]: {
              prompt: [1, id, prompt, {}, ['58']],
              outputs: {},
              status: {
                status_str: 'error',
                completed: false,
                messages: [
                  ['execution_start', { prompt_id: id }],
                  [
                    'execution_error',
                    {
                      prompt_id: id,
                      node_id: '37',
                      node_type: 'UNETLoader',
                      exception_message: 'Value not in list: unet_name',
                    },
                  ],
                ],
              },
            },
          });
          return;
        }
        const name = `kol_${id}.mp4`;
        await outputs.get(name);
        const save = node(prompt, 'SaveVideo')?.[0] ?? '58';
        sendJson(res, 200, {
          [id]: {
            prompt: [1, id, prompt, {}, [save]],
            outputs: {
              [save]: {
                images: [{ filename: name, subfolder: 'kol', type: 'output' }],
                animated: [true],
              },
            },
            status: { status_str: 'success', completed: true, messages: [] },
          },
        });
        return;
      }
      if (req.method === 'GET' && url.pathname === '/view') {
        const clip = outputs.get(url.searchParams.get('filename') ?? '');
        if (!clip || url.searchParams.get('type') !== 'output') {
          res.writeHead(404);
          res.end();
          return;
        }
        const bytes = await clip;
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
        res.end(bytes);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/queue') {
        const body = JSON.parse(raw.toString()) as { delete?: string[] };
        fake.deleted.push(...(body.delete ?? []));
        sendJson(res, 200, {});
        return;
      }
      sendJson(res, 404, { error: 'not found' });
    })().catch((error: unknown) => sendJson(res, 500, { error: String(error) }));
  });
  fake.baseUrl = server.baseUrl;
  fake.close = server.close;
  return fake;
}
