import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { REQUEST_TIMEOUT_MS } from '../../constants';
import {
  closedPortOrigin,
  setViewportWidth,
  startLoopbackServer,
  type Reply,
} from '../../testing/loopback-server';
import { configureHttp, httpClient, request, setUnauthorizedHandler } from '../client';
import { ApiError } from '../errors';

let reply: Reply = {};
let server: Awaited<ReturnType<typeof startLoopbackServer>>;

beforeAll(async () => {
  server = await startLoopbackServer((seen) => {
    if (seen.path === '/set-cookie') {
      return {
        body: { code: 0, msg: '', data: null },
        headers: { 'Set-Cookie': 'kol_sid=s3cr3t; Path=/' },
      };
    }
    return reply;
  });
  configureHttp({ baseURL: server.origin });
});

afterEach(() => {
  setUnauthorizedHandler(null);
  configureHttp({ timeout: REQUEST_TIMEOUT_MS });
  setViewportWidth(1024);
});

afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('the call should have failed');
}

describe('the HTTP rules of spec section 7', () => {
  it('keeps the 240 000 ms timeout and sends cookies by default', () => {
    expect(httpClient.defaults.timeout).toBe(240_000);
    expect(httpClient.defaults.withCredentials).toBe(true);
  });

  it('resolves with the data of a body whose code is 0', async () => {
    reply = { body: { code: 0, msg: 'ok', data: { userId: 7 } } };
    await expect(request('GET', '/api/user/current', {})).resolves.toEqual({ userId: 7 });
  });

  it('sends query parameters for GET and a JSON body for POST', async () => {
    reply = { body: { code: 0, msg: '', data: null } };
    await request('GET', '/api/notice/click', { query: { noticeId: -1 } });
    expect(server.seen.at(-1)).toMatchObject({ method: 'GET', query: { noticeId: '-1' } });
    await request('POST', '/api/user/login', { body: { username: '小明', password: 'x' } });
    expect(server.seen.at(-1)).toMatchObject({
      method: 'POST',
      body: { username: '小明', password: 'x' },
    });
  });

  it('calls the unauthorized handler and rejects on code 401 in the body', async () => {
    const handler = jest.fn();
    setUnauthorizedHandler(handler);
    reply = { body: { code: 401, msg: '请先登录', data: null } };
    const error = await failure(request('GET', '/api/user/current', {}));
    expect(error).toMatchObject({ kind: 'unauthorized', code: 401, message: '请先登录' });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledWith(error);
  });

  it('calls the unauthorized handler on HTTP status 401, with or without an envelope', async () => {
    const handler = jest.fn();
    setUnauthorizedHandler(handler);
    reply = { status: 401, raw: 'Unauthorized', headers: { 'Content-Type': 'text/plain' } };
    expect(await failure(request('GET', '/api/user/current', {}))).toMatchObject({
      kind: 'unauthorized',
      code: 401,
      status: 401,
    });
    reply = { status: 401, body: { code: 401, msg: '登录已过期', data: null } };
    expect(await failure(request('GET', '/api/user/current', {}))).toMatchObject({
      code: 401,
      message: '登录已过期',
    });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('rejects any other code with the body msg', async () => {
    const handler = jest.fn();
    setUnauthorizedHandler(handler);
    reply = { body: { code: 402, msg: '生成次数已用完', data: null } };
    expect(await failure(request('POST', '/api/video/gen_video', { body: {} }))).toMatchObject({
      kind: 'business',
      code: 402,
      message: '生成次数已用完',
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('rejects another code without msg with 请求失败', async () => {
    reply = { body: { code: 500, data: null } };
    expect(await failure(request('GET', '/api/x', {}))).toMatchObject({
      code: 500,
      message: '请求失败',
    });
    reply = { body: { code: 7, msg: '', data: null } };
    expect(await failure(request('GET', '/api/x', {}))).toMatchObject({
      code: 7,
      message: '请求失败',
    });
  });

  it('reads the envelope of an error status', async () => {
    reply = { status: 400, body: { code: 400, msg: '「用户名」不能为空', data: null } };
    expect(await failure(request('POST', '/api/user/login', { body: {} }))).toMatchObject({
      code: 400,
      status: 400,
      message: '「用户名」不能为空',
    });
    reply = {
      status: 502,
      raw: '<html>bad gateway</html>',
      headers: { 'Content-Type': 'text/html' },
    };
    expect(await failure(request('GET', '/api/x', {}))).toMatchObject({
      code: 502,
      message: '请求失败',
    });
  });

  it('rejects with the transport message on timeout', async () => {
    configureHttp({ timeout: 50 });
    reply = { body: { code: 0, msg: '', data: null }, delayMs: 500 };
    expect(await failure(request('GET', '/api/slow', {}))).toMatchObject({
      kind: 'timeout',
      code: null,
      message: 'timeout of 50ms exceeded',
    });
  });

  it('rejects with the transport message on a network error', async () => {
    const closed = await closedPortOrigin();
    // jsdom keeps a failed XHR's timeout timer running; a short timeout lets jest exit soon.
    configureHttp({ baseURL: closed, timeout: 1000 });
    // jsdom reports the refused connection on its virtual console; the rejection is what counts.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await failure(request('GET', '/api/user/current', {}))).toMatchObject({
        kind: 'network',
        code: null,
        message: 'Network Error',
      });
    } finally {
      quiet.mockRestore();
      configureHttp({ baseURL: server.origin });
    }
  });

  it('rejects with the transport message when aborted', async () => {
    reply = { body: { code: 0, msg: '', data: null }, delayMs: 500 };
    const controller = new AbortController();
    const pending = request('GET', '/api/slow', {}, { signal: controller.signal });
    controller.abort();
    expect(await failure(pending)).toMatchObject({ kind: 'aborted', message: 'canceled' });
  });

  it('sends platform m below 768 px and pc from 768 px, decided at each request', async () => {
    reply = { body: { code: 0, msg: '', data: null } };
    setViewportWidth(767);
    await request('GET', '/api/user/current', {});
    expect(server.seen.at(-1)?.headers.platform).toBe('m');
    setViewportWidth(768);
    await request('GET', '/api/user/current', {});
    expect(server.seen.at(-1)?.headers.platform).toBe('pc');
  });

  it('sends the cookies the server set, across origins', async () => {
    reply = { body: { code: 0, msg: '', data: null } };
    await request('GET', '/set-cookie', {});
    await request('GET', '/api/user/current', {});
    expect(server.seen.at(-1)?.headers.cookie).toContain('kol_sid=s3cr3t');
  });

  it('reports an upload’s progress in percent, and nothing while the total is unknown', async () => {
    reply = { body: { code: 0, msg: '', data: { url: '/uploads/a.png' } } };
    // jsdom's XMLHttpRequest never knows an upload's total, so the browser's progress events
    // are played to the request's handler here, as a browser fires them.
    const interceptor = httpClient.interceptors.request.use((config) => {
      const report = config.onUploadProgress;
      for (const [loaded, total] of [
        [10, undefined],
        [50, 200],
        [150, 200],
        [200, 200],
      ] as const) {
        report?.({ loaded, total, bytes: loaded, lengthComputable: total !== undefined });
      }
      return config;
    });
    const percents: number[] = [];
    try {
      await expect(
        request(
          'POST',
          '/api/file/upload_image',
          { body: new Uint8Array(200) },
          { onUploadProgress: (percent) => percents.push(percent) },
        ),
      ).resolves.toEqual({ url: '/uploads/a.png' });
    } finally {
      httpClient.interceptors.request.eject(interceptor);
    }
    expect(percents).toEqual([25, 75, 100]);
  });
});
