import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@testing-library/react';
import { WRITING_STREAM_PATH, configureHttp } from '@kol/shared-sdk';
import {
  ok,
  refuse,
  startLoopbackServer,
  type FakeRoutes,
  type LoopbackServer,
  type SeenRequest,
} from '@kol/shared-sdk/testing';

export { ok, refuse, type FakeRoutes };

/** One open `text/event-stream` answer of the generation stream path. */
export interface SseConnection {
  query: Record<string, string>;
  /** Writes one real SSE frame: `event: <name>\ndata: <json>\n\n`. */
  send: (event: string, data: unknown) => void;
  /** Ends the answer (a browser's EventSource then reports an error and would reconnect). */
  end: () => void;
}

export interface FakeBackend extends LoopbackServer {
  /** Requests to one endpoint, in order. */
  calls: (method: string, path: string) => SeenRequest[];
  /** Every connection made to the generation stream, in order. */
  streams: SseConnection[];
  /** Resolves with the next (or an already open, not yet taken) stream connection. */
  nextStream: () => Promise<SseConnection>;
}

export interface FakeBackendOptions {
  /** Called for each connection to WRITING_STREAM_PATH; the test writes its frames. */
  onStream?: (stream: SseConnection) => void;
}

/**
 * Starts the fake backend on loopback and points the SDK's one HTTP client at it. JSON calls
 * go to the SDK's loopback server (the real envelope); the generation stream is answered here
 * with real server-sent events, frame by frame, since that server answers in one piece.
 */
export async function startFakeBackend(
  routes: FakeRoutes,
  options: FakeBackendOptions = {},
): Promise<FakeBackend> {
  const api = await startLoopbackServer(
    (request) =>
      routes[`${request.method} ${request.path}`]?.(request) ?? refuse(404, '接口不存在', 404),
  );
  const streams: SseConnection[] = [];
  let taken = 0;
  const waiting: ((stream: SseConnection) => void)[] = [];

  const front = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === WRITING_STREAM_PATH) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        'Access-Control-Allow-Origin': String(req.headers.origin ?? '*'),
        'Access-Control-Allow-Credentials': 'true',
      });
      res.write(': connected\n\n');
      const stream: SseConnection = {
        query: Object.fromEntries(url.searchParams),
        send: (event, data) => {
          if (!res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        },
        end: () => {
          if (!res.destroyed) res.end();
        },
      };
      streams.push(stream);
      options.onStream?.(stream);
      const waiter = waiting.shift();
      if (waiter) {
        taken += 1;
        waiter(stream);
      }
      return;
    }
    const forward = http.request(
      `${api.origin}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  configureHttp({ baseURL: origin, timeout: 5000 });

  return {
    origin,
    seen: api.seen,
    calls: (method, path) =>
      api.seen.filter((request) => request.method === method && request.path === path),
    streams,
    nextStream: () => {
      if (taken < streams.length) {
        const stream = streams[taken] as SseConnection;
        taken += 1;
        return Promise.resolve(stream);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await api.close();
    },
  };
}

/**
 * Waits for the page to open the generation stream and takes it. The page opens it in an
 * effect of the render that follows the start, so React renders while this waits (`waitFor`,
 * not `act`, which would hold those renders back until the stream it waits for is open).
 */
export async function openedStream(server: FakeBackend): Promise<SseConnection> {
  let opened: SseConnection | undefined;
  void server.nextStream().then((stream) => {
    opened = stream;
  });
  return waitFor(() => {
    if (!opened) throw new Error('the page has not opened the generation stream');
    return opened;
  });
}
