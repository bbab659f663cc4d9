import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { ProviderError } from '../../src/providers/errors';
import { startOpsServer } from '../../src/ops/ops-server';
import { apiOps } from '../../src/ops/plugin';
import { metricValue, parseScrape, scrapeApp } from '../helpers/scrape';
import { ADMIN_TOKEN, PC, createTestApp, createUser, onPostgres } from '../helpers/test-app';

// /metrics and /readyz of an API process: what a monitoring system scrapes and a balancer
// probes. The worker's own listener and its stage metrics: tasks/worker-kill.test.ts; the
// runner's task metrics: tasks/runner.test.ts; remote failures and rollbacks: api/canary.test.ts.
let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await createTestApp({
    // An image service nobody answers: each draw is a provider failure.
    images: {
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'test-key',
      model: 'test-image',
      portraitSize: '1024x1536',
      timeoutMs: 5_000,
    },
  }));
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, token?: string) =>
  app.inject({
    method: 'GET',
    url,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });

describe('/metrics', () => {
  it('refuses a scrape without the admin token, or with a wrong one', async () => {
    expect((await get('/metrics')).statusCode).toBe(401);
    const wrong = await get('/metrics', 'not-the-token');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('管理令牌无效');
    expect((await get('/metrics', ADMIN_TOKEN)).statusCode).toBe(200);
  });

  it('answers the Prometheus text format with the process metrics, each sample of this role', async () => {
    const response = await get('/metrics', ADMIN_TOKEN);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parseScrape(response.body);
    const names = new Set(families.map((family) => family.name));
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'kol_http_requests_total',
      'kol_video_tasks',
      'kol_sessions_active',
      'kol_provider_calls_total',
      'kol_media_store_operations_total',
    ]) {
      expect(names).toContain(name);
    }
    const queued = families.find((f) => f.name === 'kol_video_tasks')?.metrics ?? [];
    expect(queued).toContainEqual({
      value: '0',
      labels: { type: 'all', state: 'queued', role: 'api' },
    });
  });

  it('counts requests by route pattern and status, never by URL', async () => {
    const before = await scrapeApp(app, ADMIN_TOKEN);
    const route = { route: '/api/notice/list', status_code: '401' };
    for (const page of [1, 2, 3]) {
      expect((await get(`/api/notice/list?page=${page}`)).statusCode).toBe(401);
    }
    for (const name of ['a1.png', 'b2.png']) {
      expect((await get(`/uploads/${name}`)).statusCode).toBe(404);
    }
    const unmatched = await app.inject({ method: 'POST', url: '/api/no/such/route' });
    expect(unmatched.statusCode).toBe(404);
    const after = await scrapeApp(app, ADMIN_TOKEN);
    const delta = (labels: Record<string, string>) =>
      metricValue(after, 'kol_http_requests_total', labels) -
      metricValue(before, 'kol_http_requests_total', labels);
    expect(delta(route)).toBe(3);
    expect(delta({ route: '/uploads/*', status_code: '404' })).toBe(2);
    expect(delta({ route: 'unmatched', status_code: '404' })).toBe(1);
    expect(
      metricValue(after, 'kol_http_request_duration_seconds_count', route) -
        metricValue(before, 'kol_http_request_duration_seconds_count', route),
    ).toBe(3);
    const routes = new Set(
      after
        .filter((f) => f.name === 'kol_http_requests_total')
        .flatMap((f) => f.metrics.map((m) => m.labels?.route)),
    );
    expect([...routes].filter((r) => r?.includes('?') || r?.includes('.png'))).toEqual([]);
  });

  it('counts sign-ins by outcome and the sessions alive', async () => {
    const { username, password } = await createUser(app);
    const login = (pass: string) =>
      app.inject({
        method: 'POST',
        url: '/api/user/login',
        headers: PC,
        payload: { username, password: pass },
      });
    const before = await scrapeApp(app, ADMIN_TOKEN);
    expect((await login('wrong-password')).statusCode).toBe(400);
    expect((await login(password)).statusCode).toBe(200);
    const after = await scrapeApp(app, ADMIN_TOKEN);
    const delta = (outcome: string) =>
      metricValue(after, 'kol_sign_ins_total', { method: 'password', outcome }) -
      metricValue(before, 'kol_sign_ins_total', { method: 'password', outcome });
    expect(delta('bad_credentials')).toBe(1);
    expect(delta('success')).toBe(1);
    expect(
      metricValue(after, 'kol_sessions_active') - metricValue(before, 'kol_sessions_active'),
    ).toBe(1);
  });

  it('counts a provider failure by provider, kind and the failure', async () => {
    const images = app.providers.images;
    if (!images) throw new Error('the test app has an image provider');
    const request = { prompt: '雾港', width: 512, height: 768, seed: 1 };
    const failure = await images
      .draw(request, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).failure).toBe('unreachable');
    const families = await scrapeApp(app, ADMIN_TOKEN);
    expect(
      metricValue(families, 'kol_provider_calls_total', {
        provider: 'openai',
        kind: 'images',
        outcome: 'unreachable',
      }),
    ).toBe(1);
    expect(
      metricValue(families, 'kol_provider_call_duration_seconds_count', {
        provider: 'openai',
        kind: 'images',
      }),
    ).toBe(1);
  });

  it('counts the media store operations by area', async () => {
    const before = await scrapeApp(app, ADMIN_TOKEN);
    await app.stores.media.putBytes('metrics/probe.txt', 'x');
    expect(await app.stores.media.stat('metrics/probe.txt')).not.toBeNull();
    const after = await scrapeApp(app, ADMIN_TOKEN);
    const delta = (operation: string) =>
      metricValue(after, 'kol_media_store_operations_total', {
        area: 'media',
        operation,
        outcome: 'ok',
      }) -
      metricValue(before, 'kol_media_store_operations_total', {
        area: 'media',
        operation,
        outcome: 'ok',
      });
    expect(delta('putBytes')).toBe(1);
    expect(delta('stat')).toBe(1);
  });
});

describe('/readyz', () => {
  it('is ready once started, and /healthz stays the liveness check', async () => {
    expect((await get('/readyz')).json()).toEqual({ status: 'ready' });
    expect((await get('/healthz')).statusCode).toBe(200);
  });

  it('on the ops listener: starting before the app, ready after it, draining while it closes', async () => {
    const ops = apiOps();
    const listener = await startOpsServer(ops, { host: '127.0.0.1', port: 0 });
    const probe = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${listener.port}${path}`);
      return { status: response.status, body: await response.text() };
    };
    try {
      expect(await probe('/readyz')).toEqual({ status: 503, body: '{"status":"starting"}' });
      expect((await probe('/healthz')).status).toBe(200);
      const { app: second } = await createTestApp({}, { ops });
      expect(await probe('/readyz')).toEqual({ status: 200, body: '{"status":"ready"}' });
      // No token on this listener: whoever reaches its address scrapes it.
      const scraped = parseScrape((await probe('/metrics')).body);
      expect(metricValue(scraped, 'kol_video_tasks', { type: 'all', state: 'queued' })).toBe(0);
      expect((await probe('/nothing')).status).toBe(404);
      // Set at the first closing hook; server.ts closes this listener only after the app.
      await second.close();
      expect(await probe('/readyz')).toEqual({ status: 503, body: '{"status":"draining"}' });
    } finally {
      await listener.close();
    }
  });

  // A database server that goes away and comes back: a TCP relay to PostgreSQL, cut and
  // restored. The embedded database lives inside the process: it has no outage of its own.
  (onPostgres ? it : it.skip)(
    'answers not ready while the database does not answer, and ready again when it does',
    async () => {
      const target = new URL(process.env.KOL_TEST_DATABASE_URL ?? '');
      const sockets = new Set<net.Socket>();
      let cut = false;
      const relay = net.createServer((client) => {
        if (cut) {
          client.destroy();
          return;
        }
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
      const port = (relay.address() as net.AddressInfo).port;
      const url = new URL(target.href);
      url.host = `127.0.0.1:${port}`;
      const { app: relayed } = await createTestApp({ database: { url: url.href } });
      try {
        const ready = () => relayed.inject({ method: 'GET', url: '/readyz' });
        expect((await ready()).json()).toEqual({ status: 'ready' });
        cut = true;
        for (const socket of sockets) socket.destroy();
        const down = await ready();
        expect(down.statusCode).toBe(503);
        expect(down.json()).toEqual({ status: 'database unavailable' });
        cut = false;
        let back = await ready();
        for (let i = 0; i < 50 && back.statusCode !== 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          back = await ready();
        }
        expect(back.json()).toEqual({ status: 'ready' });
      } finally {
        cut = true;
        for (const socket of sockets) socket.destroy();
        await relayed.close().catch(() => undefined);
        relay.close();
      }
    },
  );
});
