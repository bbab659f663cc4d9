import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { startCasServer, type CasServer } from '../helpers/cas-server';
import {
  PC,
  body,
  createTestApp,
  createUser,
  login,
  sessionCookie,
  uniqueName,
} from '../helpers/test-app';

const SSO_HOST = 'kol.example.com';
const SERVICE = `http://${SSO_HOST}/login/ticket`;

let cas: CasServer;
let app: FastifyInstance;

beforeAll(async () => {
  cas = await startCasServer();
  ({ app } = await createTestApp({
    ssoHosts: [SSO_HOST, 'test.kol.example.com:8443'],
    ssoServerUrl: cas.url,
  }));
});
afterAll(async () => {
  await app.close();
  await cas.close();
});

const onHost = (host: string) => ({ ...PC, host });
const verify = (ticket: string, host = SSO_HOST, target = app) =>
  target.inject({
    method: 'GET',
    url: `/api/sso/verify?ticket=${encodeURIComponent(ticket)}`,
    headers: onHost(host),
  });

describe('single sign-on (CAS 3.0)', () => {
  it('gives the CAS login URL with the service on the requesting host', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/sso/login',
      headers: onHost(SSO_HOST),
    });
    expect(body(response)).toEqual({
      code: 0,
      msg: '成功',
      data: { url: `${cas.url}/login?service=${encodeURIComponent(SERVICE)}` },
    });
    const withPort = await app.inject({
      method: 'GET',
      url: '/api/sso/login',
      headers: onHost('test.kol.example.com:8443'),
    });
    expect((body(withPort).data as { url: string }).url).toContain(
      encodeURIComponent('http://test.kol.example.com:8443/login/ticket'),
    );
    const logout = await app.inject({
      method: 'GET',
      url: '/api/sso/logout',
      headers: onHost(SSO_HOST),
    });
    expect(body(logout).data).toEqual({
      url: `${cas.url}/logout?service=${encodeURIComponent(`http://${SSO_HOST}/`)}`,
    });
  });

  it('refuses sign-on on other hosts', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/sso/login',
      headers: onHost('localhost:8080'),
    });
    expect(response.statusCode).toBe(403);
    expect(body(response).msg).toBe('当前域名未启用单点登录，请使用账号密码登录');
  });

  it('validates a ticket, creates an unregistered local user and starts a session', async () => {
    const username = uniqueName('cas');
    cas.issue('ST-1-good', SERVICE, username, { nickname: '单点用户', email: 'a@b.c' });
    const response = await verify('ST-1-good');
    expect(body(response)).toMatchObject({
      code: 0,
      data: { username, status: 0, registerSource: 'sso', nickname: '单点用户' },
    });
    expect(cas.requests.at(-1)).toBe(SERVICE);
    const me = await app.inject({
      method: 'GET',
      url: '/api/user/current',
      cookies: { kol_session: sessionCookie(response) },
    });
    expect(body(me).data).toMatchObject({ username, status: 0 });

    // The next login finds the same user.
    cas.issue('ST-2-good', SERVICE, username);
    expect(body(await verify('ST-2-good')).data).toMatchObject({
      username,
      userId: (body(me).data as { userId: number }).userId,
    });
  });

  it('refuses an invalid or replayed ticket without a session', async () => {
    const response = await verify('ST-404-unknown');
    expect(response.statusCode).toBe(400);
    expect(body(response).msg).toBe('登录票据无效或已过期，请重新登录');
    expect(response.cookies.find((c) => c.name === 'kol_session')).toBeUndefined();

    cas.issue('ST-3-once', SERVICE, uniqueName('cas'));
    expect(body(await verify('ST-3-once')).code).toBe(0);
    expect(body(await verify('ST-3-once')).code).toBe(400);
  });

  it('answers 502 with a clear message when the CAS server is down', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const { app: offline } = await createTestApp({
      ssoHosts: [SSO_HOST],
      ssoServerUrl: `http://127.0.0.1:${closedPort}/cas`,
    });
    try {
      const response = await verify('ST-5-any', SSO_HOST, offline);
      expect(response.statusCode).toBe(502);
      expect(body(response)).toEqual({
        code: 502,
        msg: '单点登录服务暂时无法访问，请稍后再试',
        data: null,
      });
      expect(response.cookies.find((c) => c.name === 'kol_session')).toBeUndefined();
    } finally {
      await offline.close();
    }
  });

  it('answers 502 when the CAS server does not answer in time', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const { port } = silent.address() as AddressInfo;
    const { app: slow } = await createTestApp({
      ssoHosts: [SSO_HOST],
      ssoServerUrl: `http://127.0.0.1:${port}/cas`,
      ssoTimeoutMs: 300,
    });
    try {
      expect(body(await verify('ST-6-any', SSO_HOST, slow)).code).toBe(502);
    } finally {
      await slow.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('accepts a one-time ticket from /api/user/ticket, once, on any host', async () => {
    const { username, password } = await createUser(app);
    const cookie = await login(app, username, password);
    const issued = await app.inject({
      method: 'GET',
      url: '/api/user/ticket',
      headers: PC,
      cookies: { kol_session: cookie },
    });
    const { ticket, expiresAt } = body(issued).data as { ticket: string; expiresAt: string };
    expect(ticket).toMatch(/^KT-/);
    const lifetime = new Date(expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(50_000);
    expect(lifetime).toBeLessThanOrEqual(60_000);

    const first = await verify(ticket, 'localhost:8080');
    expect(body(first)).toMatchObject({ code: 0, data: { username } });
    expect(sessionCookie(first)).not.toBe(cookie);
    expect(body(await verify(ticket, 'localhost:8080')).code).toBe(400);
  });

  it('needs a signed-in user to issue a ticket', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/user/ticket', headers: PC });
    expect(body(response).code).toBe(401);
  });
});
