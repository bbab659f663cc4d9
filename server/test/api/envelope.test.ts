import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { PC, body, createTestApp, createUser, login } from '../helpers/test-app';

let app: FastifyInstance;
let logs: string[];

beforeAll(async () => {
  ({ app, logs } = await createTestApp({}, { captureLogs: true }));
});
afterAll(async () => {
  await app.close();
});

const postLogin = (payload: string, contentType = 'application/json') =>
  app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers: { ...PC, 'content-type': contentType },
    payload,
  });

describe('the envelope on every failure', () => {
  it('answers an unknown /api route with a 404 envelope', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope/nothing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(body(response)).toEqual({
      code: 404,
      msg: '接口不存在：GET /api/nope/nothing',
      data: null,
    });
  });

  it.each([
    ['malformed JSON', '{"username": "a",', '请求内容不是有效的 JSON'],
    ['an empty body', '', '请求内容不能为空'],
    ['a missing field', '{"username": "a"}', '「密码」不能为空'],
    ['an empty field', '{"username": "", "password": "x"}', '「用户名」不能为空'],
    ['a wrong type', '{"username": {"a": 1}, "password": "x"}', '「用户名」必须是文本'],
    ['a body that is not an object', '[1, 2]', '请求内容格式不正确'],
    [
      'a too long field',
      JSON.stringify({ username: 'u'.repeat(65), password: 'x' }),
      '「用户名」不能超过 64 个字符',
    ],
  ])('answers %s with 400 and a Chinese message naming the field', async (_case, payload, msg) => {
    const response = await postLogin(payload);
    expect(response.statusCode).toBe(400);
    expect(body(response)).toEqual({ code: 400, msg, data: null });
  });

  it('answers a wrong query type with the field name', async () => {
    const { username, password } = await createUser(app);
    const cookie = await login(app, username, password);
    const response = await app.inject({
      method: 'GET',
      url: '/api/notice/list?pageIndex=abc&pageSize=10&id=-1',
      cookies: { kol_session: cookie },
    });
    expect(body(response)).toEqual({ code: 400, msg: '「页码」必须是整数', data: null });
    const tooBig = await app.inject({
      method: 'GET',
      url: '/api/notice/list?pageIndex=1&pageSize=5000&id=-1',
      cookies: { kol_session: cookie },
    });
    expect(body(tooBig).msg).toBe('「每页条数」不能大于 1000');
    const missing = await app.inject({
      method: 'GET',
      url: '/api/notice/click',
      headers: PC,
      cookies: { kol_session: cookie },
    });
    expect(body(missing).msg).toBe('「通知」不能为空');
  });

  it('answers an oversize body with 413', async () => {
    const response = await postLogin(
      JSON.stringify({ username: 'a', password: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(response.statusCode).toBe(413);
    expect(body(response)).toEqual({ code: 413, msg: '请求内容过大', data: null });
  });

  it('answers an unsupported content type with 400', async () => {
    const response = await postLogin('username=a&password=b', 'application/x-www-form-urlencoded');
    expect(body(response)).toEqual({
      code: 400,
      msg: '不支持的请求内容类型，请使用 JSON',
      data: null,
    });
  });

  it('hides an unexpected error behind a generic message with the request id, and logs it', async () => {
    const original = app.users.findByUsername;
    app.users.findByUsername = async () => {
      throw new Error('database exploded');
    };
    try {
      const response = await postLogin(
        JSON.stringify({ username: 'someone', password: 'whatever1' }),
      );
      expect(response.statusCode).toBe(500);
      const requestId = response.headers['x-request-id'];
      expect(typeof requestId).toBe('string');
      expect(body(response)).toEqual({
        code: 500,
        msg: `服务器开小差了，请稍后再试（请求编号 ${String(requestId)}）`,
        data: null,
      });
      expect(response.body).not.toContain('exploded');
      const logged = logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((l) => l.reqId === requestId && l.level === 50);
      expect(logged).toMatchObject({
        msg: 'unexpected error',
        err: { message: 'database exploded' },
      });
    } finally {
      app.users.findByUsername = original;
    }
  });
});

describe('health and docs', () => {
  it('answers /healthz when the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document with the contract routes', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/user/login',
        '/api/sso/verify',
        '/api/notice/list',
        '/api/admin/users/create',
      ]),
    );
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/html/);
  });
});
