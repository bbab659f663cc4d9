import fp from 'fastify-plugin';
import { Metrics, databaseSources } from './metrics';
import { Readiness } from './readiness';

declare module 'fastify' {
  interface FastifyInstance {
    /** What this process counts for monitoring (ops/metrics.ts). */
    metrics: Metrics;
    /** Whether this process should get work (ops/readiness.ts). */
    readiness: Readiness;
  }
}

export interface OpsState {
  metrics: Metrics;
  readiness: Readiness;
}

/** The metrics and readiness of an API process (server.ts makes them before the app, for its listener). */
export const apiOps = (): OpsState => ({ metrics: new Metrics('api'), readiness: new Readiness() });

/**
 * Counts every request (by route pattern: `/uploads/*`, never the URL), and marks the process
 * ready once every plugin is, draining when it closes (its routes: routes/ops.ts). Registered
 * first, so its hook sees every route.
 */
export default fp<{ ops?: OpsState }>(
  async (app, options) => {
    const { metrics, readiness } = options.ops ?? apiOps();
    app.decorate('metrics', metrics);
    app.decorate('readiness', readiness);

    app.addHook('onResponse', async (request, reply) => {
      // No route matched (a 404 of the router): one label value for all of them.
      const route = request.routeOptions.url ?? 'unmatched';
      const labels = {
        method: request.method,
        route,
        status_code: String(reply.statusCode),
      };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    });

    app.addHook('onReady', async () => {
      metrics.readFrom(databaseSources(app.repos));
      readiness.checkAlso([
        { name: 'database', check: () => app.pingDatabase() },
        { name: 'media store', check: () => app.stores.media.open() },
      ]);
      readiness.phase = 'ready';
    });
    // First of the closing hooks: a balancer probing /readyz stops sending work at once.
    app.addHook('preClose', async () => {
      readiness.phase = 'draining';
    });
  },
  { name: 'ops' },
);
