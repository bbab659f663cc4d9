import { existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { RemoteRegistry } from '@kol/shared-sdk/contracts';
import { ReleaseRefused } from '../../src/releases/build';
import { makeFakeBuild } from '../helpers/fake-build';
import {
  PC,
  body,
  createTestApp,
  createUser,
  login,
  testDataDir,
  uniqueName,
} from '../helpers/test-app';

let app: FastifyInstance;
const builds = () => path.join(testDataDir(), 'builds');

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

const registry = async () => {
  const response = await app.inject({ method: 'GET', url: '/api/platform/remotes' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-cache');
  return body(response).data as RemoteRegistry;
};

async function refusal(promise: Promise<unknown>): Promise<ReleaseRefused> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ReleaseRefused) return error;
    throw error;
  }
  throw new Error('the release was accepted');
}

describe('release store and registry', () => {
  let first: string;
  let second: string;

  it('starts empty', async () => {
    expect(await registry()).toEqual({ remotes: [] });
  });

  it('publishes a build and lists it with its routes and manifest URL', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'v1'));
    const result = await app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' });
    expect(result).toMatchObject({ remote: 'mfe_fake', status: 'published', previous: null });
    expect(result.version).toMatch(/^0\.1\.0-[0-9a-f]{8}$/);
    first = result.version;

    expect(await registry()).toEqual({
      remotes: [
        {
          name: 'mfe_fake',
          version: first,
          manifestUrl: `/remotes/mfe_fake/${first}/mf-manifest.json`,
          routes: [
            { path: '/fake', layout: 'inside' },
            { path: '/fake/:id', layout: 'outside', mobile: true, templateId: 2 },
          ],
          lastKnownGood: null,
        },
      ],
    });
    const folder = path.join(testDataDir(), 'releases', 'mfe_fake', first);
    // The start script's stamp stays out of the release; no temporary folder is left over.
    expect(readdirSync(folder).sort()).toEqual(
      [
        '387.1a99fcde.js',
        'kol-routes.json',
        'mf-manifest.json',
        'mf-stats.json',
        'remoteEntry.js',
      ].sort(),
    );
    expect(readdirSync(path.dirname(folder))).toEqual([first]);
  });

  it('treats the same build published again as a no-op', async () => {
    const copy = makeFakeBuild(path.join(builds(), 'v1-again'));
    const result = await app.releases.publishDir('mfe_fake', copy, { createdBy: 'test' });
    expect(result).toEqual({
      remote: 'mfe_fake',
      version: first,
      status: 'unchanged',
      previous: null,
      canary: null,
      endedCanary: null,
    });
    expect((await registry()).remotes).toHaveLength(1);
  });

  it('makes a second build active with the first as last known good', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'v2'), {
      marker: 'two',
      routes: [
        { path: '/fake', layout: 'inside' },
        { path: '/fake/new', layout: 'inside' },
      ],
    });
    const result = await app.releases.publishDir('mfe_fake', dir, {
      createdBy: 'test',
      note: 'second',
    });
    expect(result).toMatchObject({ status: 'published', previous: first });
    second = result.version;
    expect(second).not.toBe(first);
    const [entry] = (await registry()).remotes;
    expect(entry).toEqual({
      name: 'mfe_fake',
      version: second,
      manifestUrl: `/remotes/mfe_fake/${second}/mf-manifest.json`,
      routes: [
        { path: '/fake', layout: 'inside' },
        { path: '/fake/new', layout: 'inside' },
      ],
      lastKnownGood: { version: first, manifestUrl: `/remotes/mfe_fake/${first}/mf-manifest.json` },
    });
    // Both folders stay: a rollback only moves the pointer.
    expect(existsSync(path.join(testDataDir(), 'releases', 'mfe_fake', first))).toBe(true);
  });

  it('refuses a build without a manifest', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'no-manifest'), {
      marker: 'x',
      omit: ['mf-manifest.json'],
    });
    const error = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
    expect(error.check).toBe('manifest');
    expect(error.message).toContain('缺少 mf-manifest.json');
  });

  it('refuses a manifest that does not parse', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'bad-manifest'), { manifest: '{ nope' });
    const error = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
    expect(error.check).toBe('manifest');
    expect(error.message).toContain('不是有效的 JSON');
  });

  it('refuses a manifest with another name', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'wrong-name'), { name: 'mfe_other' });
    const error = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
    expect(error.check).toBe('name');
    expect(error.message).toContain('mfe_other');
  });

  it('refuses missing or malformed route claims', async () => {
    const missing = makeFakeBuild(path.join(builds(), 'no-routes'), { omit: ['kol-routes.json'] });
    const noClaims = await refusal(
      app.releases.publishDir('mfe_fake', missing, { createdBy: 'test' }),
    );
    expect(noClaims.check).toBe('routes');
    expect(noClaims.message).toContain('缺少 kol-routes.json');

    for (const routes of [
      { path: '/x' },
      [{ path: '/x', layout: 'sideways' }],
      [{ path: '/x', layout: 'inside', templateId: 99 }],
      [{ path: 'x', layout: 'inside' }],
    ]) {
      const dir = makeFakeBuild(path.join(builds(), uniqueName('bad-routes')), { routes });
      const error = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
      expect(error.check).toBe('routes');
      expect(error.message).toContain('路由声明检查');
    }
  });

  it('refuses a build holding a symlink', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'symlink'), { marker: 'link' });
    symlinkSync('/etc/passwd', path.join(dir, 'passwd.js'));
    const error = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
    expect(error.check).toBe('files');
  });

  it('refuses a build whose compressed copy says something else than its file', async () => {
    const dir = makeFakeBuild(path.join(builds(), 'stale-copy'), { marker: 'patched' });
    const chunk = path.join(dir, '387.1a99fcde.js');
    // Copies of another build's chunk: a browser given the copy would run that code.
    writeFileSync(`${chunk}.gz`, gzipSync('console.log("patched");'));
    writeFileSync(`${chunk}.br`, brotliCompressSync('console.log("before the patch");'));
    const error = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
    expect(error.check).toBe('files');
    expect(error.message).toBe(
      '发布被拒绝（文件检查）：压缩副本 387.1a99fcde.js.br 与 387.1a99fcde.js 的内容不一致，请重新构建',
    );

    // Copies that are not compressed at all are refused the same way.
    writeFileSync(`${chunk}.br`, 'console.log("patched");');
    const garbled = await refusal(app.releases.publishDir('mfe_fake', dir, { createdBy: 'test' }));
    expect(garbled.message).toContain('387.1a99fcde.js.br');
  });

  it('left the registry as it was after the refusals', async () => {
    const [entry] = (await registry()).remotes;
    expect(entry?.version).toBe(second);
  });

  describe('files of a release', () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers });

    it('serves entry files no-cache and chunks immutable, with their content types', async () => {
      const manifest = await get(`/remotes/mfe_fake/${second}/mf-manifest.json`);
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['cache-control']).toBe('no-cache');
      expect(manifest.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(manifest.json()).toMatchObject({ name: 'mfe_fake' });

      const entry = await get(`/remotes/mfe_fake/${second}/remoteEntry.js`);
      expect(entry.headers['cache-control']).toBe('no-cache');
      expect(entry.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(entry.body).toBe('var mfe_fake = "two";');

      for (const file of ['kol-routes.json', 'mf-stats.json']) {
        const response = await get(`/remotes/mfe_fake/${second}/${file}`);
        expect(response.headers['cache-control']).toBe('no-cache');
      }

      const chunk = await get(`/remotes/mfe_fake/${first}/387.1a99fcde.js`);
      expect(chunk.statusCode).toBe(200);
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(chunk.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(chunk.body).toBe('console.log("one");');
    });

    it('answers a conditional request with 304 and a HEAD without a body', async () => {
      const url = `/remotes/mfe_fake/${second}/387.1a99fcde.js`;
      const etag = (await get(url)).headers.etag;
      expect(typeof etag).toBe('string');
      const again = await get(url, { 'if-none-match': String(etag) });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const head = await app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(String('console.log("two");'.length));
    });

    it('answers 404 for unknown files, versions and remotes', async () => {
      for (const url of [
        `/remotes/mfe_fake/${second}/nope.js`,
        '/remotes/mfe_fake/0.1.0-00000000/mf-manifest.json',
        `/remotes/mfe_none/${second}/mf-manifest.json`,
        '/remotes/mfe_fake',
        `/remotes/mfe_fake/${second}`,
        `/remotes/mfe_fake/${second}/`,
      ]) {
        const response = await get(url);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      }
    });

    /**
     * Over a real socket, because app.inject parses the URL like a browser and would turn
     * `/a/../b` into `/b` before the server sees it; a hostile client sends it as it is.
     */
    async function rawGet(url: string): Promise<{ status: number; body: string }> {
      const address = app.server.address();
      if (!address || typeof address !== 'object') throw new Error('not listening');
      return new Promise((resolve, reject) => {
        const socket = net.connect(address.port, '127.0.0.1', () => {
          // write, not end: a half-closed socket may be dropped before the answer is ready.
          socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        });
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (answer += chunk));
        socket.on('error', reject);
        socket.on('end', () => {
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
          resolve({ status, body: answer.split('\r\n\r\n').slice(1).join('\r\n\r\n') });
        });
      });
    }

    it('refuses every path that leaves the store', async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      // Something worth stealing next to the store, as the admin token is in DATA_DIR.
      writeFileSync(path.join(testDataDir(), 'admin-token'), 'secret-admin-token');
      const inStore = path.join(testDataDir(), 'releases', 'mfe_fake', second);
      symlinkSync(path.join(testDataDir(), 'admin-token'), path.join(inStore, 'linked.js'));
      // A version folder that is a link to the data folder.
      symlinkSync(testDataDir(), path.join(testDataDir(), 'releases', 'mfe_fake', '0.9.9-linked'));
      for (const url of [
        '/remotes/mfe_user/../../admin-token',
        '/remotes/mfe_fake/../../admin-token',
        `/remotes/mfe_fake/${second}/../../../admin-token`,
        `/remotes/mfe_fake/${second}/%2e%2e/%2e%2e/%2e%2e/admin-token`,
        `/remotes/mfe_fake/${second}/%2E%2E%2F%2E%2E%2F%2E%2E%2Fadmin-token`,
        `/remotes/mfe_fake/${second}/..%2f..%2f..%2fadmin-token`,
        `/remotes/mfe_fake/${second}/..%5c..%5c..%5cadmin-token`,
        `/remotes/mfe_fake/${second}//etc/passwd`,
        `/remotes/mfe_fake/${second}/%2fetc%2fpasswd`,
        `/remotes/mfe_fake/${second}/linked.js`,
        `/remotes/mfe_fake/${second}/%00.js`,
        '/remotes/%2e%2e/%2e%2e/admin-token/x',
        '/remotes/mfe_fake/0.9.9-linked/admin-token',
      ]) {
        const response = await rawGet(url);
        expect({ url, status: response.status }).toEqual({ url, status: 404 });
        expect(response.body).not.toContain('secret-admin-token');
        // What a browser would send for the same link is no way out either.
        const parsed = await get(url);
        expect(parsed.body).not.toContain('secret-admin-token');
      }
      // Fastify's router refuses a broken escape before any route sees it.
      const malformed = await rawGet(`/remotes/mfe_fake/${second}/%zz.js`);
      expect(malformed.status).toBe(400);
    });
  });
});

describe('remote load failures', () => {
  const report = {
    remote: 'mfe_fake',
    version: '0.1.0-deadbeef',
    phase: 'loadEntry',
    message: 'ChunkLoadError: Loading chunk 387 failed.',
  };

  it('stores a report, with the user when signed in', async () => {
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/platform/remote_failures',
      headers: { ...PC, 'user-agent': 'jest-browser' },
      payload: report,
    });
    expect(anonymous.statusCode).toBe(200);
    expect(body(anonymous)).toEqual({ code: 0, msg: '成功', data: null });

    const { username, password } = await createUser(app);
    const cookie = await login(app, username, password);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/platform/remote_failures',
      headers: PC,
      cookies: { kol_session: cookie },
      payload: { ...report, phase: 'afterResolve' },
    });
    expect(signedIn.statusCode).toBe(200);

    const stored = await app.releases.listFailures('mfe_fake');
    expect(stored).toHaveLength(2);
    // Kept either way; neither counts towards an automatic rollback: one is signed out, and
    // the server never handed the other user this version.
    expect(stored[0]).toMatchObject({ ...report, phase: 'afterResolve', counted: false });
    expect(stored[0]?.userId).toEqual(expect.any(Number));
    expect(stored[1]).toMatchObject({
      ...report,
      userAgent: 'jest-browser',
      userId: null,
      counted: false,
    });
  });

  it('needs the platform header and a valid body', async () => {
    const noHeader = await app.inject({
      method: 'POST',
      url: '/api/platform/remote_failures',
      payload: report,
    });
    expect(noHeader.statusCode).toBe(403);
    const tooLong = await app.inject({
      method: 'POST',
      url: '/api/platform/remote_failures',
      headers: PC,
      payload: { ...report, message: 'x'.repeat(2001) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(body(tooLong).msg).toContain('错误信息');
  });

  it('limits how often one client reports', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 35; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/platform/remote_failures',
        headers: PC,
        remoteAddress: '10.9.9.9',
        payload: report,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });
});
