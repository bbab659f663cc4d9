import { afterEach, beforeEach } from '@jest/globals';
import { configureHttp } from '../http/client';
import {
  startLoopbackServer,
  type LoopbackServer,
  type Reply,
  type SeenRequest,
} from './loopback-server';

/** Answers keyed by `METHOD /api/path`; a missing one answers like the server's 404. */
export type FakeRoutes = Record<string, (request: SeenRequest) => Reply>;

/** The envelope the real server answers on success. */
export function ok(data: unknown, delayMs?: number): Reply {
  return { body: { code: 0, msg: '', data }, delayMs };
}

/** The envelope the real server answers when it refuses. */
export function refuse(code: number, msg: string, status = 200): Reply {
  return { status, body: { code, msg, data: null } };
}

/**
 * A whole `text/event-stream` answer (e.g. the video progress stream): each event a real SSE
 * frame, written at once after `delayMs`. A stream that ends makes a browser's EventSource
 * report an error, which is how a dropped connection looks too.
 */
export function sseReply(events: { event: string; data: unknown }[], delayMs?: number): Reply {
  return {
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' },
    raw: events
      .map(({ event, data }) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      .join(''),
    delayMs,
  };
}

export interface FakeBackend extends LoopbackServer {
  /** Requests to one endpoint, in order. */
  calls: (method: string, path: string) => SeenRequest[];
}

/** Starts a fake backend on loopback and points the SDK's one HTTP client at it. */
export async function startFakeBackend(routes: FakeRoutes): Promise<FakeBackend> {
  const server = await startLoopbackServer(
    (request) =>
      routes[`${request.method} ${request.path}`]?.(request) ?? refuse(404, '接口不存在', 404),
  );
  configureHttp({ baseURL: server.origin, timeout: 5000 });
  return {
    ...server,
    calls: (method, path) =>
      server.seen.filter((request) => request.method === method && request.path === path),
  };
}

export interface FakeBackendPerTest {
  /** Opens this test's fake backend with its answers (closed after the test). */
  start(routes: FakeRoutes): Promise<FakeBackend>;
  /** The backend this test started. */
  readonly current: FakeBackend;
}

/**
 * The set-up every page test repeats, once: each test starts from an empty session storage (the
 * `KOL_` values a flow keeps) and opens its own fake backend with `start`, closed after it. Call
 * it at the top of a test file; `wrap` adds the answers every test of the file needs under its
 * own (a remote's quiet answers to the calls its pages make on opening).
 */
export function fakeBackendPerTest(
  wrap: (routes: FakeRoutes) => FakeRoutes = (routes) => routes,
): FakeBackendPerTest {
  let current: FakeBackend | undefined;
  beforeEach(() => sessionStorage.clear());
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async start(routes) {
      await current?.close();
      current = await startFakeBackend(wrap(routes));
      return current;
    },
    get current() {
      if (!current) throw new Error('no fake backend started in this test: call start() first');
      return current;
    },
  };
}
