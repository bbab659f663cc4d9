import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { RemoteRegistry } from '@kol/shared-sdk/contracts';
import { listBuildFiles } from '../../src/releases/build';
import { ReleaseStore } from '../../src/releases/store';
import {
  fakeHostChunkHash,
  fakeHostPage,
  makeFakeBuild,
  makeFakeHostBuild,
  sharedSingleton,
} from '../helpers/fake-build';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { ADMIN_TOKEN, body, createTestApp, testDataDir } from '../helpers/test-app';
import { filesBelow } from '../helpers/files';

/**
 * Releases kept in an object store (MEDIA_STORE=s3, here a real S3-protocol server): two API
 * processes on the same database and the same bucket, as on two machines. A remote and the
 * host released through the first are served by both, with the same headers as from a local
 * folder; a rollback through one shows on the other; the shared checks read the manifests from
 * the bucket; and the first process's releases folder holds nothing but cache.
 */

const HOST = 'host_shell';
const REMOTE = 'mfe_fake';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-kol-actor': 'api-tester' };
const HOST_SHARED = [sharedSingleton('react', '19.3.1')];
const REMOTE_SHARED = [sharedSingleton('react', '19.3.2', '^19.3.1')];

let s3: TestS3Server;
/** The first API process (releases go through it) and a second one on another "machine". */
let first: FastifyInstance;
let second: FastifyInstance;
const builds = () => path.join(testDataDir(), 's3-builds');
const cacheOf = (name: string) => path.join(testDataDir(), `${name}-releases-cache`);

/** A large hashed chunk, worth its compressed copies (the build writes `.br` and `.gz`). */
const BIG_CHUNK = 'big.0a1b2c3d.js';
const bigChunk = (marker: string) =>
  Array.from({ length: 400 }, (_, i) => `console.log(${JSON.stringify(`${marker}-${i}`)});`).join(
    '\n',
  );

function remoteBuild(label: string): string {
  const content = bigChunk(label);
  return makeFakeBuild(path.join(builds(), label), {
    name: REMOTE,
    marker: label,
    shared: REMOTE_SHARED,
    extraFiles: { [BIG_CHUNK]: content },
  });
}

/** Writes the build's compressed copies of its big chunk, as webpack.preset.cjs does. */
function compressCopies(dir: string, file: string): void {
  const original = readFileSync(path.join(dir, file));
  writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(original));
  writeFileSync(path.join(dir, `${file}.gz`), gzipSync(original));
}

const page = fakeHostPage;
const chunkHash = fakeHostChunkHash;
const hostBuild = (title: string, shared: unknown[] = HOST_SHARED) =>
  makeFakeHostBuild(path.join(builds(), `host-${chunkHash(title)}`), title, shared);

/** A multipart body of a build folder's files, bytes as they are (compressed copies too). */
function multipart(fields: Record<string, string>, dir: string, files: readonly string[]) {
  const boundary = `----kol-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      readFileSync(path.join(dir, file)),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Releases a build folder through the admin API of `app`, as `pnpm kol remote release` does. */
async function release(app: FastifyInstance, remote: string, dir: string) {
  const form = multipart({ remote }, dir, await listBuildFiles(dir));
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/remotes/release',
    headers: { ...admin, ...form.headers },
    payload: form.payload,
  });
  return { status: response.statusCode, ...body(response) };
}

async function releasedVersion(app: FastifyInstance, remote: string, dir: string) {
  const answer = await release(app, remote, dir);
  expect(answer).toMatchObject({ status: 200, code: 0 });
  return (answer.data as { to: string }).to;
}

async function rollback(app: FastifyInstance, remote: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/remotes/rollback',
    headers: admin,
    payload: { remote },
  });
  expect(response.statusCode).toBe(200);
}

async function registry(app: FastifyInstance): Promise<RemoteRegistry> {
  const response = await app.inject({ method: 'GET', url: '/api/platform/remotes' });
  return body(response).data as RemoteRegistry;
}

beforeAll(async () => {
  s3 = await startS3Server();
  const common = {
    mediaStore: s3.config,
    // No host build on either machine: the host is served from its releases only.
    hostDistDir: path.join(testDataDir(), 's3-no-host-build'),
  };
  // Each process's releases folder and its copies of stored keys in one place, as checked
  // below.
  for (const name of ['first', 'second']) mkdirSync(cacheOf(name), { recursive: true });
  const own = (name: string) => ({
    releasesDir: cacheOf(name),
    storeCacheDir: path.join(cacheOf(name), 'copies'),
  });
  ({ app: first } = await createTestApp({ ...common, ...own('first') }));
  ({ app: second } = await createTestApp({ ...common, ...own('second') }));
});
afterAll(async () => {
  await first?.close();
  await second?.close();
  await s3?.close();
});

describe('releases in an object store, served by every API process', () => {
  const v: Record<'remote1' | 'remote2' | 'host1' | 'host2', string> = {
    remote1: '',
    remote2: '',
    host1: '',
    host2: '',
  };
  let v1Dir = '';

  it('shows the not-built page before any host release, as without a store', async () => {
    const response = await second.inject({ method: 'GET', url: '/', headers: HTML });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('前端尚未构建');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('releases the host through the first process and serves it from both', async () => {
    v.host1 = await releasedVersion(first, HOST, hostBuild('one'));
    for (const app of [first, second]) {
      const response = await app.inject({ method: 'GET', url: '/video/config', headers: HTML });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(page('one'));
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      const chunk = await app.inject({ method: 'GET', url: `/main.${chunkHash('one')}.js` });
      expect(chunk.statusCode).toBe(200);
      expect(chunk.headers['cache-control']).toContain('immutable');
      expect(chunk.headers['content-security-policy']).toBeUndefined();
    }
    // A missing script is a 404, not the page.
    const missing = await second.inject({ method: 'GET', url: '/main.ffffffff.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('releases a remote through the first process; the second serves it with its headers', async () => {
    v1Dir = remoteBuild('one');
    compressCopies(v1Dir, BIG_CHUNK);
    v.remote1 = await releasedVersion(first, REMOTE, v1Dir);
    expect((await registry(second)).remotes.map((r) => [r.name, r.version])).toEqual([
      [REMOTE, v.remote1],
    ]);
    const base = `/remotes/${REMOTE}/${v.remote1}`;

    const entry = await second.inject({ method: 'GET', url: `${base}/remoteEntry.js` });
    expect(entry.statusCode).toBe(200);
    expect(entry.body).toBe(`var ${REMOTE} = "one";`);
    expect(entry.headers['cache-control']).toBe('no-cache');
    expect(entry.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const manifest = await second.inject({ method: 'GET', url: `${base}/mf-manifest.json` });
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.json()).toMatchObject({ name: REMOTE });

    const original = readFileSync(path.join(v1Dir, BIG_CHUNK));
    const br = await second.inject({
      method: 'GET',
      url: `${base}/${BIG_CHUNK}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload).toEqual(readFileSync(path.join(v1Dir, `${BIG_CHUNK}.br`)));
    expect(brotliDecompressSync(br.rawPayload)).toEqual(original);

    const range = await second.inject({
      method: 'GET',
      url: `${base}/${BIG_CHUNK}`,
      headers: { range: 'bytes=10-29', 'accept-encoding': 'br' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 10-29/${original.length}`);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.rawPayload).toEqual(original.subarray(10, 30));

    const plain = await second.inject({ method: 'GET', url: `${base}/${BIG_CHUNK}` });
    expect(plain.rawPayload).toEqual(original);
    const again = await second.inject({
      method: 'GET',
      url: `${base}/${BIG_CHUNK}`,
      headers: { 'if-none-match': String(plain.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    for (const url of [
      `${base}/nothing.js`,
      `/remotes/${REMOTE}/0.1.0-ffffffff/remoteEntry.js`,
      `${base}/..%2f..%2fmfe_other/x.js`,
    ]) {
      expect((await second.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it('rolls a remote back through one process; both answer the old version at once', async () => {
    v.remote2 = await releasedVersion(second, REMOTE, remoteBuild('two'));
    expect((await registry(first)).remotes[0]?.version).toBe(v.remote2);
    const newer = await first.inject({
      method: 'GET',
      url: `/remotes/${REMOTE}/${v.remote2}/remoteEntry.js`,
    });
    expect(newer.body).toBe(`var ${REMOTE} = "two";`);
    await rollback(first, REMOTE);
    for (const app of [first, second]) {
      const [entry] = (await registry(app)).remotes;
      expect(entry?.version).toBe(v.remote1);
      const served = await app.inject({ method: 'GET', url: entry?.manifestUrl ?? '' });
      expect(served.statusCode).toBe(200);
      const remoteEntry = await app.inject({
        method: 'GET',
        url: `/remotes/${REMOTE}/${v.remote1}/remoteEntry.js`,
      });
      expect(remoteEntry.body).toBe(`var ${REMOTE} = "one";`);
    }
  });

  it('rolls the host back: both serve the previous page, and the newer page keeps its chunks', async () => {
    v.host2 = await releasedVersion(first, HOST, hostBuild('two'));
    for (const app of [first, second]) {
      expect((await app.inject({ method: 'GET', url: '/', headers: HTML })).body).toBe(page('two'));
    }
    await rollback(second, HOST);
    for (const app of [first, second]) {
      expect((await app.inject({ method: 'GET', url: '/', headers: HTML })).body).toBe(page('one'));
      // A page loaded before the rollback still gets its chunk, from the other stored version.
      const chunk = await app.inject({ method: 'GET', url: `/main.${chunkHash('two')}.js` });
      expect(chunk.statusCode).toBe(200);
      expect(chunk.body).toBe(`console.log(${JSON.stringify('two')})`);
      expect(chunk.headers['cache-control']).toContain('immutable');
    }
  });

  it('checks shared versions both ways against manifests read from the bucket', async () => {
    // The active host release (in the bucket) requires react ^19.3.1.
    const react18 = makeFakeBuild(path.join(builds(), 'react18'), {
      name: REMOTE,
      marker: 'react18',
      shared: [sharedSingleton('react', '18.2.0')],
    });
    const refused = await release(second, REMOTE, react18);
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('共享依赖 react 的版本 18.2.0 不满足宿主要求的 ^19.3.1');
    // The running remote (its manifest in the bucket) does not fit a host requiring react 20.
    const refusedHost = await release(
      second,
      HOST,
      hostBuild('three', [sharedSingleton('react', '20.0.0')]),
    );
    expect(refusedHost.status).toBe(400);
    expect(refusedHost.msg).toContain(
      `远程模块 ${REMOTE}（${v.remote1}）：共享依赖 react 的版本 19.3.2 不满足新宿主要求的 ^20.0.0`,
    );
  });

  it('keeps the releases in the bucket only: the first process wrote nothing but cache', async () => {
    const store = new ReleaseStore(first.stores.releases);
    expect(await store.versions(REMOTE)).toEqual([v.remote1, v.remote2].sort());
    expect(await store.versions(HOST)).toEqual([v.host1, v.host2].sort());
    const keys = (await first.stores.releases.list(`${REMOTE}/${v.remote1}/`)).map((e) => e.key);
    expect(keys).toEqual(
      (await listBuildFiles(v1Dir)).map((file) => `${REMOTE}/${v.remote1}/${file}`).sort(),
    );
    // Anything in the releases folders is a copy of a stored key, byte for byte.
    for (const name of ['first', 'second']) {
      for (const file of filesBelow(cacheOf(name))) {
        const key = file
          .split(path.sep)
          .slice(file.startsWith('copies') ? 2 : 0)
          .join('/');
        const stored = await first.stores.releases.read(key);
        expect(stored).not.toBeNull();
        const bytes = stored ? Buffer.concat(await stored.toArray()) : Buffer.alloc(0);
        expect(bytes).toEqual(readFileSync(path.join(cacheOf(name), file)));
      }
    }
  });

  it('counts a version only once its manifest is stored, and never overwrites one', async () => {
    const store = new ReleaseStore(first.stores.releases);
    // A release cut short before its manifest (a crash half-way) is not a version yet.
    await first.stores.releases.putBytes(`${REMOTE}/0.1.0-deadbeef/remoteEntry.js`, 'half');
    expect(await store.has(REMOTE, '0.1.0-deadbeef')).toBe(false);
    expect(await store.versions(REMOTE)).not.toContain('0.1.0-deadbeef');
    const build = {
      remote: REMOTE,
      dir: v1Dir,
      files: await listBuildFiles(v1Dir),
      manifest: {},
      routes: [],
      version: v.remote1,
    };
    expect(await store.write(build)).toBe(false);
  });
});
