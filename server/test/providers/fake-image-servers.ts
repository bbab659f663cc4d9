import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createCanvas } from '@napi-rs/canvas';
import type { ImageProviderConfig } from '../../src/config';

/** A small PNG of one colour: a test can tell a provider's picture from a local frame by it. */
export function solidPng(color = 'rgb(220, 30, 30)', width = 72, height = 128): Buffer {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, width, height);
  return canvas.toBuffer('image/png');
}

interface Loopback {
  baseUrl: string;
  close(): Promise<void>;
}

async function listen(
  handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
): Promise<Loopback & { port: number }> {
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
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sendJson = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * A loopback server speaking the OpenAI Images API as the real one does:
 * `POST /v1/images/generations` answers `{ created, data: [{ b64_json }] }` (or `url`, served
 * by `GET /files/<name>`); failures answer the status with `{ error: { message, type, code } }`.
 * `respond` picks the behaviour of each request from its body (default: the picture).
 */
export type ImageBehaviour =
  /** The picture, after `delayMs` when given (a slow provider). */
  | { type: 'b64'; delayMs?: number }
  | { type: 'url' }
  | { type: 'error'; status: number; message: string; retryAfter?: number }
  | { type: 'hang' }
  | { type: 'garbage' }
  | { type: 'notPicture' };

export interface FakeImages extends Loopback {
  /** The images API root (…/v1), as IMAGE_BASE_URL takes it. */
  apiUrl: string;
  picture: Buffer;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  /** `POST /v1/images/edits` (multipart): the fields, and each `image[]` as uploaded. */
  edits: Array<{ fields: Record<string, string>; images: Buffer[] }>;
  /** False: the service has no edit endpoint (404, as many compatible services answer). */
  editsSupported: boolean;
  respond: (body: Record<string, unknown>) => ImageBehaviour;
}

/** The app's image provider pointed at a fake images API (the video tests' 10 s limit). */
export function fakeOpenAiImages(
  fake: FakeImages,
  timeoutMs = 10_000,
): Extract<ImageProviderConfig, { kind: 'openai' }> {
  return {
    kind: 'openai',
    baseUrl: fake.apiUrl,
    apiKey: 'sk-test',
    model: 'fake-image',
    portraitSize: '1024x1792',
    timeoutMs,
  };
}

export async function startFakeImages(): Promise<FakeImages> {
  const fake: FakeImages = {
    baseUrl: '',
    apiUrl: '',
    picture: solidPng(),
    requests: [],
    edits: [],
    editsSupported: true,
    respond: () => ({ type: 'b64' }),
    close: async () => {},
  };
  const server = await listen((req, raw, res) => {
    if (req.method === 'GET' && req.url === '/files/picture.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(fake.picture);
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/images/edits') {
      if (!fake.editsSupported) {
        sendJson(res, 404, { error: { message: 'Not Found', type: 'invalid_request_error' } });
        return;
      }
      void new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: new Uint8Array(raw),
      })
        .formData()
        .then(async (form) => {
          const fields: Record<string, string> = {};
          const images: Buffer[] = [];
          for (const [key, value] of form.entries()) {
            if (typeof value === 'string') fields[key] = value;
            else if (key === 'image[]') images.push(Buffer.from(await value.arrayBuffer()));
          }
          fake.edits.push({ fields, images });
          sendJson(res, 200, {
            created: Math.floor(Date.now() / 1000),
            data: [{ b64_json: fake.picture.toString('base64') }],
          });
        });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations') {
      sendJson(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      return;
    }
    const body = JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
    fake.requests.push({ headers: req.headers, body });
    const behaviour = fake.respond(body);
    switch (behaviour.type) {
      case 'b64': {
        const send = () =>
          sendJson(res, 200, {
            created: Math.floor(Date.now() / 1000),
            data: [{ b64_json: fake.picture.toString('base64'), revised_prompt: body.prompt }],
          });
        if (behaviour.delayMs) setTimeout(send, behaviour.delayMs);
        else send();
        return;
      }
      case 'url':
        sendJson(res, 200, {
          created: Math.floor(Date.now() / 1000),
          data: [{ url: `${fake.baseUrl}/files/picture.png` }],
        });
        return;
      case 'error':
        if (behaviour.retryAfter !== undefined) {
          res.setHeader('retry-after', String(behaviour.retryAfter));
        }
        sendJson(res, behaviour.status, {
          error: { message: behaviour.message, type: 'api_error', code: null },
        });
        return;
      case 'hang':
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data": [ not json');
        return;
      case 'notPicture':
        sendJson(res, 200, { data: [{ b64_json: Buffer.from('hello').toString('base64') }] });
        return;
    }
  });
  fake.baseUrl = server.baseUrl;
  fake.apiUrl = `${server.baseUrl}/v1`;
  fake.close = server.close;
  return fake;
}

/**
 * A loopback server speaking ComfyUI's HTTP API as the real one does: `POST /prompt`
 * `{ prompt, client_id }` answers `{ prompt_id, number, node_errors }` (400 with `error` and
 * `node_errors` for a workflow it refuses); `GET /history/{id}` answers `{}` while the run is
 * queued and `{ [id]: { prompt, outputs, status } }` once done; `GET /view` answers the
 * picture; `POST /upload/image` (multipart) stores an input picture; `POST /queue` deletes.
 */
export type ComfyBehaviour = 'ok' | 'executionError' | 'refused' | 'hang';

export interface FakeComfy extends Loopback {
  picture: Buffer;
  behaviour: ComfyBehaviour;
  /** Polls answered `{}` before a run shows as done. */
  pendingPolls: number;
  prompts: Array<{ id: string; prompt: Record<string, { inputs: Record<string, unknown> }> }>;
  uploads: Array<{ name: string; bytes: number }>;
  deleted: string[];
  views: string[];
  historyPolls: number;
}

export async function startFakeComfy(): Promise<FakeComfy> {
  const fake: FakeComfy = {
    baseUrl: '',
    picture: solidPng('rgb(30, 200, 60)'),
    behaviour: 'ok',
    pendingPolls: 2,
    prompts: [],
    uploads: [],
    deleted: [],
    views: [],
    historyPolls: 0,
    close: async () => {},
  };
  const polls = new Map<string, number>();
  let next = 1;
  const server = await listen((req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/prompt') {
      const body = JSON.parse(raw.toString()) as { prompt?: unknown; client_id?: unknown };
      if (fake.behaviour === 'refused' || typeof body.prompt !== 'object' || !body.prompt) {
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
      const id = `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`;
      fake.prompts.push({ id, prompt: body.prompt as FakeComfy['prompts'][number]['prompt'] });
      sendJson(res, 200, { prompt_id: id, number: next, node_errors: {} });
      return;
    }
    if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
      fake.historyPolls += 1;
      const id = decodeURIComponent(url.pathname.slice('/history/'.length));
      const seen = (polls.get(id) ?? 0) + 1;
      polls.set(id, seen);
      if (fake.behaviour === 'hang' || seen <= fake.pendingPolls) {
        sendJson(res, 200, {});
        return;
      }
      const prompt = fake.prompts.find((p) => p.id === id)?.prompt ?? {};
      if (fake.behaviour === 'executionError') {
        sendJson(res, 200, {
          [id]: {
            prompt: [1, id, prompt, {}, ['9']],
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
                    node_id: '4',
                    node_type: 'CheckpointLoaderSimple',
                    exception_message: 'ckpt not found',
                  },
                ],
              ],
            },
          },
        });
        return;
      }
      sendJson(res, 200, {
        [id]: {
          prompt: [1, id, prompt, {}, ['9']],
          outputs: {
            '9': { images: [{ filename: `kol_${id}.png`, subfolder: '', type: 'output' }] },
          },
          status: { status_str: 'success', completed: true, messages: [] },
        },
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/view') {
      fake.views.push(url.searchParams.get('filename') ?? '');
      if (url.searchParams.get('type') !== 'output') {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(fake.picture);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/upload/image') {
      const text = raw.toString('latin1');
      const name = /name="image"; filename="([^"]+)"/.exec(text)?.[1] ?? '';
      fake.uploads.push({ name, bytes: raw.length });
      sendJson(res, 200, { name, subfolder: '', type: 'input' });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/queue') {
      const body = JSON.parse(raw.toString()) as { delete?: string[] };
      fake.deleted.push(...(body.delete ?? []));
      sendJson(res, 200, {});
      return;
    }
    sendJson(res, 404, { error: 'not found' });
  });
  fake.baseUrl = server.baseUrl;
  fake.close = server.close;
  return fake;
}
