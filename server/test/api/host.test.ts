import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { PlatformConfig, RemoteRegistry } from '@kol/shared-sdk/contracts';
import { makeFakeBuild } from '../helpers/fake-build';
import { body, createTestApp, testDataDir } from '../helpers/test-app';

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script src="/main.3fa9c2b1.js"></script></body></html>';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** A built file with the compressed copies the webpack preset writes beside it. */
const BIG_JS = `window.kol=${JSON.stringify('漫剪视频 '.repeat(400))};`;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

function writeWithCopies(file: string, content: string): void {
  writeFileSync(file, content);
  writeFileSync(`${file}.br`, brotliCompressSync(content));
  writeFileSync(`${file}.gz`, gzipSync(content));
}

let built: FastifyInstance;
let notBuilt: FastifyInstance;
let withOverrides: FastifyInstance;

beforeAll(async () => {
  const hostDist = path.join(testDataDir(), 'host-built');
  mkdirSync(hostDist, { recursive: true });
  writeFileSync(path.join(hostDist, 'index.html'), INDEX);
  writeFileSync(path.join(hostDist, 'main.3fa9c2b1.js'), 'console.log("host")');
  writeFileSync(path.join(hostDist, 'remoteEntry.js'), 'var host_shell;');
  writeFileSync(path.join(hostDist, 'favicon.ico'), 'icon');
  writeWithCopies(path.join(hostDist, 'vendor.5be0c1d2.js'), BIG_JS);

  // A workspace with two remote builds, one of them broken, for the start-up release.
  const workspace = path.join(testDataDir(), 'workspace');
  const fakeDist = makeFakeBuild(path.join(workspace, 'mfe-fake', 'dist'), { name: 'mfe_fake' });
  writeWithCopies(path.join(fakeDist, '656.a23d421c.js'), BIG_JS);
  makeFakeBuild(path.join(workspace, 'mfe-broken', 'dist'), {
    name: 'mfe_broken',
    routes: [{ layout: 'inside' }],
  });
  mkdirSync(path.join(workspace, 'mfe-unbuilt'), { recursive: true });

  ({ app: built } = await createTestApp({
    hostDistDir: hostDist,
    autoPublishFrom: workspace,
    ssoHosts: ['kol.example.com'],
    contact: { title: '联系方式', lines: [{ label: '微信', value: 'kol-helper' }] },
  }));
  ({ app: notBuilt } = await createTestApp());
  ({ app: withOverrides } = await createTestApp({ remoteOverrides: true }));
});
afterAll(async () => {
  await built.close();
  await notBuilt.close();
  await withOverrides.close();
});

/** A page's Content-Security-Policy as `{ directive: 'source source' }`. */
function policyOf(page: { headers: Record<string, unknown> }): Record<string, string> {
  return Object.fromEntries(
    String(page.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources.join(' ')]),
  );
}

describe('the host shell', () => {
  it('serves index.html at / and for page URLs the host router handles', async () => {
    for (const url of [
      '/',
      '/video/config',
      '/m/video?x=1',
      '/login/ticket?ticket=KT-1',
      '/user',
    ]) {
      const response = await built.inject({ method: 'GET', url, headers: HTML });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 200 });
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends a Content-Security-Policy and forbids framing, however the page is reached', async () => {
    const pages = [
      await built.inject({ method: 'GET', url: '/', headers: HTML }),
      await built.inject({ method: 'GET', url: '/video/config', headers: HTML }),
      await built.inject({ method: 'GET', url: '/index.html' }),
      await notBuilt.inject({ method: 'GET', url: '/', headers: HTML }),
    ];
    for (const page of pages) {
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(policyOf(page)).toMatchObject({
        'default-src': "'self'",
        // Scripts only from this origin: the host's build and the remotes under /remotes/.
        'script-src': "'self'",
        'style-src': "'self' 'unsafe-inline'",
        'connect-src': "'self'",
        'object-src': "'none'",
        'base-uri': "'self'",
        'frame-ancestors': "'none'",
      });
    }
  });

  it('serves its hashed files immutable and the others no-cache', async () => {
    const main = await built.inject({ method: 'GET', url: '/main.3fa9c2b1.js' });
    expect(main.statusCode).toBe(200);
    expect(main.body).toBe('console.log("host")');
    expect(main.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(main.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A script runs under the page's policy: the page headers are not repeated on it.
    expect(main.headers['content-security-policy']).toBeUndefined();
    expect(main.headers['x-frame-options']).toBeUndefined();

    const entry = await built.inject({ method: 'GET', url: '/remoteEntry.js' });
    expect(entry.headers['cache-control']).toBe('no-cache');
    const index = await built.inject({ method: 'GET', url: '/index.html' });
    expect(index.headers['cache-control']).toBe('no-cache');
    const icon = await built.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.headers['content-type']).toBe('image/x-icon');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    const response = await built.inject({
      method: 'GET',
      url: '/main.00000000.js',
      headers: { accept: '*/*' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('keeps /api, /remotes, /uploads and /healthz out of the fallback', async () => {
    const api = await built.inject({ method: 'GET', url: '/api/nope', headers: HTML });
    expect(api.statusCode).toBe(404);
    expect(body(api)).toEqual({ code: 404, msg: '接口不存在：GET /api/nope', data: null });
    for (const url of ['/remotes/mfe_none/1/x.js', '/uploads/nope.png', '/api']) {
      const response = await built.inject({ method: 'GET', url, headers: HTML });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      expect(response.body).not.toBe(INDEX);
    }
    const health = await built.inject({ method: 'GET', url: '/healthz', headers: HTML });
    expect(health.statusCode).toBe(200);
    expect(health.body).not.toBe(INDEX);
  });

  it('answers a page that says how to build when the host is not built', async () => {
    const response = await notBuilt.inject({ method: 'GET', url: '/video/config', headers: HTML });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('前端尚未构建');
    expect(response.body).toContain('pnpm build');
    const root = await notBuilt.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(503);
    // The API works all the same.
    const api = await notBuilt.inject({ method: 'GET', url: '/api/platform/config' });
    expect(api.statusCode).toBe(200);
  });
});

describe('pre-compressed copies of built files', () => {
  const get = (url: string, headers: Record<string, string> = {}) =>
    built.inject({ method: 'GET', url, headers });

  it('sends the brotli copy to a browser, gzip to a client without br, the file itself to the rest', async () => {
    const br = await get('/vendor.5be0c1d2.js', BROWSER);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(BIG_JS) / 5);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_JS);

    for (const accept of ['gzip, deflate', 'br;q=0, gzip']) {
      const gz = await get('/vendor.5be0c1d2.js', { 'accept-encoding': accept });
      expect({ accept, encoding: gz.headers['content-encoding'] }).toEqual({
        accept,
        encoding: 'gzip',
      });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_JS);
    }

    const plain = await get('/vendor.5be0c1d2.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.body).toBe(BIG_JS);
  });

  it('gives each coding its own validator, and a range the file itself', async () => {
    const br = await get('/vendor.5be0c1d2.js', BROWSER);
    const plain = await get('/vendor.5be0c1d2.js');
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await get('/vendor.5be0c1d2.js', {
      ...BROWSER,
      'if-none-match': String(br.headers.etag),
    });
    expect(again.statusCode).toBe(304);

    // Byte offsets are the uncompressed file's.
    const range = await get('/vendor.5be0c1d2.js', { ...BROWSER, range: 'bytes=0-9' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body).toBe(BIG_JS.slice(0, 10));
  });

  it('serves a file without copies as it is, and a remote release’s copies too', async () => {
    const small = await get('/main.3fa9c2b1.js', BROWSER);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log("host")');
    // Pictures are never looked up: only text types have copies.
    const icon = await get('/favicon.ico', BROWSER);
    expect(icon.headers.vary).toBeUndefined();

    const registry = body(await built.inject({ method: 'GET', url: '/api/platform/remotes' }))
      .data as RemoteRegistry;
    const base = (registry.remotes[0]?.manifestUrl ?? '').replace(/mf-manifest\.json$/, '');
    const chunk = await get(`${base}656.a23d421c.js`, BROWSER);
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(chunk.rawPayload).toString()).toBe(BIG_JS);
  });
});

describe('start-up release of the workspace builds', () => {
  it('released the valid remote build and skipped the broken one', async () => {
    const registry = body(await built.inject({ method: 'GET', url: '/api/platform/remotes' }))
      .data as RemoteRegistry;
    expect(registry.remotes.map((remote) => remote.name)).toEqual(['mfe_fake']);
    const [remote] = registry.remotes;
    const manifest = await built.inject({ method: 'GET', url: remote?.manifestUrl ?? '' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.json()).toMatchObject({ name: 'mfe_fake' });
  });
});

describe('OpenAPI document', () => {
  it('lists the new API routes and leaves the file routes out', async () => {
    const response = await built.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys((response.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/platform/config',
        '/api/platform/remotes',
        '/api/platform/remote_failures',
        '/api/file/upload_image',
        '/api/file/uploaded_imgs',
      ]),
    );
    // Outside /api only the ops endpoints are documented: the file routes stay out.
    expect(paths.filter((p) => !p.startsWith('/api/')).sort()).toEqual([
      '/healthz',
      '/metrics',
      '/readyz',
    ]);
  });
});

describe('platform configuration', () => {
  it('answers the SSO hosts and the contact details without a session', async () => {
    const response = await built.inject({ method: 'GET', url: '/api/platform/config' });
    expect(body(response)).toEqual({
      code: 0,
      msg: '成功',
      data: {
        ssoHosts: ['kol.example.com'],
        contact: { title: '联系方式', lines: [{ label: '微信', value: 'kol-helper' }] },
        remoteOverrides: false,
      },
    });
  });

  it('tells the host whether remote overrides are allowed, and then admits loopback dev servers', async () => {
    const config = (server: FastifyInstance) =>
      server
        .inject({ method: 'GET', url: '/api/platform/config' })
        .then((response) => (body(response).data as PlatformConfig).remoteOverrides);
    expect(await config(withOverrides)).toBe(true);
    expect(await config(notBuilt)).toBe(false);

    // The page lets a dev server on the browser's machine serve scripts, manifests and its
    // hot-reload socket; nothing else gets in.
    const policy = policyOf(await withOverrides.inject({ method: 'GET', url: '/', headers: HTML }));
    expect(policy['script-src']).toBe("'self' http://localhost:* http://127.0.0.1:*");
    expect(policy['connect-src']).toBe(
      "'self' http://localhost:* http://127.0.0.1:* ws://localhost:* ws://127.0.0.1:*",
    );
    expect(policy).toMatchObject({
      'default-src': "'self'",
      'object-src': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(policy['script-src']).not.toContain('unsafe-eval');
  });

  it('has a Chinese contact title and no made-up contact lines', async () => {
    const data = body(await notBuilt.inject({ method: 'GET', url: '/api/platform/config' }))
      .data as PlatformConfig;
    expect(data.contact.title).toBe('联系我们');
    expect(data.contact.lines).toEqual([]);
  });
});
