import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export type Reply = {
  status?: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
};
export type Handler = (request: SeenRequest) => Reply;

/**
 * A real HTTP server on loopback for the SDK's tests. jsdom's page origin is
 * http://localhost, and this server is 127.0.0.1, so every call is cross-origin: the server
 * answers CORS with credentials, as a backend on another origin would have to.
 */
export async function startLoopbackServer(handler: Handler) {
  const seen: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const cors = {
        'Access-Control-Allow-Origin': String(req.headers.origin ?? '*'),
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Headers': 'platform, content-type, idempotency-key',
        'Access-Control-Allow-Methods': 'GET, POST',
      };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      const request: SeenRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: !text
          ? undefined
          : String(req.headers['content-type']).startsWith('application/json')
            ? JSON.parse(text)
            : text,
      };
      seen.push(request);
      const reply = handler(request);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, {
          'Content-Type': 'application/json',
          ...cors,
          ...reply.headers,
        });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? { code: 0, msg: '', data: null }));
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, reply.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearTimeout);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on loopback with nothing listening, for network errors. */
export async function closedPortOrigin(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export function setViewportWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

export type LoopbackServer = Awaited<ReturnType<typeof startLoopbackServer>>;
