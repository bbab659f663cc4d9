import { createServer, type Server } from 'node:http';
import type { OpsState } from './plugin';

export interface OpsServer {
  /** The port it listens on (the configured one, or the one given for port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * The separate ops listener (OpsConfig.listen): GET /metrics, /readyz and /healthz to whoever
 * reaches its address (keep it on a private interface), no token. A plain Node server rather
 * than the API's: a worker process has no other, and an API process answers here while it
 * still migrates (not ready) and until its last request has drained.
 */
export async function startOpsServer(
  ops: OpsState,
  listen: { host: string; port: number },
): Promise<OpsServer> {
  const server: Server = createServer((request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const json = (status: number, body: object) =>
      send(status, 'application/json; charset=utf-8', JSON.stringify(body));
    const route = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      json(405, { status: 'method not allowed' });
      return;
    }
    const answer = async () => {
      if (route === '/metrics') {
        send(200, ops.metrics.contentType, await ops.metrics.text());
      } else if (route === '/readyz') {
        const readiness = await ops.readiness.answer();
        json(readiness.ready ? 200 : 503, { status: readiness.status });
      } else if (route === '/healthz') {
        json(200, { status: 'ok' });
      } else {
        json(404, { status: 'not found: /metrics, /readyz, /healthz' });
      }
    };
    answer().catch((error: unknown) => json(500, { status: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : listen.port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
