import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../helpers/test-app';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { platform: 'pc', ...headers } });

describe('compressed API answers', () => {
  it('sends a large JSON answer in brotli to a browser, gzip to a client without br', async () => {
    const plain = await get('/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const document = plain.body;
    expect(Buffer.byteLength(document)).toBeGreaterThan(10_000);

    const br = await get('/api/docs/json', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(document) / 5);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(document);

    const gz = await get('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(document);
  });

  it('leaves a small answer as it is', async () => {
    const small = await get('/api/platform/config', { 'accept-encoding': 'gzip, deflate, br' });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ code: 0 });
  });

  it('never compresses the answer to a HEAD', async () => {
    const head = await app.inject({
      method: 'HEAD',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});
