import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { AuditEntry, RemoteRegistry, RemoteVersions } from '@kol/shared-sdk/contracts';
import {
  fakeHostChunkHash,
  fakeHostPage,
  makeFakeBuild,
  makeFakeHostBuild,
  sharedSingleton,
} from '../helpers/fake-build';
import { runKol } from '../helpers/kol';
import { ADMIN_TOKEN, body, createTestApp, testDataDir } from '../helpers/test-app';

/**
 * The host shell released like a remote: released at start from the workspace's host build,
 * served at the site root from its active release, released again, rolled back and promoted
 * with the ops CLI, and refused when a running remote's shared versions do not fit it.
 */

const HOST = 'host_shell';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-kol-actor': 'api-tester' };
const HOST_SHARED = [sharedSingleton('react', '19.3.1'), sharedSingleton('antd', '6.6.8')];

let app: FastifyInstance;
let server: string;
const workspace = () => path.join(testDataDir(), 'workspace');
const builds = () => path.join(testDataDir(), 'builds');
const page = fakeHostPage;
const chunkHash = fakeHostChunkHash;
const hostBuild = (dir: string, title: string, shared: unknown[] = HOST_SHARED) =>
  makeFakeHostBuild(dir, title, shared);

beforeAll(async () => {
  const hostDist = hostBuild(path.join(workspace(), 'host-shell', 'dist'), 'KOL Studio 一');
  makeFakeBuild(path.join(workspace(), 'mfe-fake', 'dist'), {
    name: 'mfe_fake',
    shared: [sharedSingleton('react', '19.3.2', '^19.3.1'), sharedSingleton('antd', '6.6.8')],
  });
  ({ app } = await createTestApp({ hostDistDir: hostDist, autoPublishFrom: workspace() }));
  server = await app.listen({ port: 0, host: '127.0.0.1' });
  // The build folder changes after the start: the server serves its release, not the folder.
  writeFileSync(path.join(hostDist, 'index.html'), page('rebuilt, not released'));
  // A limit against hangs: the start publishes the builds (compressed copies included), which
  // took over 30 s with a browser suite and webpack builds beside it on 2 cores.
}, 120_000);
afterAll(async () => {
  await app.close();
});

const kol = (...argv: string[]) => runKol(server, argv, { repoRoot: workspace(), cwd: builds() });

async function served(url = '/') {
  const response = await app.inject({ method: 'GET', url, headers: HTML });
  return {
    status: response.statusCode,
    body: response.body,
    cache: response.headers['cache-control'],
  };
}

async function hostVersions(): Promise<RemoteVersions> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/admin/remotes?remote=${HOST}`,
    headers: admin,
  });
  const [entry] = (body(response).data as { items: RemoteVersions[] }).items;
  if (!entry) throw new Error('host_shell not listed');
  return entry;
}

const versionOf = (out: string) => {
  const match = / → (\S+)/.exec(out);
  if (!match?.[1]) throw new Error(`no version in "${out}"`);
  return match[1];
};

describe('host shell releases', () => {
  const v: Record<1 | 2, string> = { 1: '', 2: '' };

  it('releases the workspace host build at start and serves index.html from it', async () => {
    const listed = await hostVersions();
    expect(listed.versions).toHaveLength(1);
    expect(listed.versions[0]).toMatchObject({ createdBy: 'auto-publish', active: true });
    v[1] = listed.active ?? '';
    expect(v[1]).toMatch(/^0\.1\.0-[0-9a-f]{8}$/);
    expect(await served('/')).toEqual({
      status: 200,
      body: page('KOL Studio 一'),
      cache: 'no-cache',
    });
    // The SPA fallback serves the released page too.
    expect((await served('/video/config')).body).toBe(page('KOL Studio 一'));
    const chunk = await app.inject({
      method: 'GET',
      url: `/main.${chunkHash('KOL Studio 一')}.js`,
    });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toContain('immutable');
  });

  it('keeps the host out of the registry of remotes', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/platform/remotes' });
    const { remotes } = body(response).data as RemoteRegistry;
    expect(remotes.map((r) => r.name)).toEqual(['mfe_fake']);
  });

  it('releases a second build with the CLI and serves its page at the next load', async () => {
    hostBuild(path.join(builds(), 'host2'), 'KOL Studio 二');
    const released = await kol('remote', 'release', HOST, '--dir', 'host2', '--note', '新标题');
    expect(released).toMatchObject({ code: 0, err: '' });
    v[2] = versionOf(released.out);
    expect(released.out).toContain(`host_shell: ${v[1]} → ${v[2]}  (released)`);
    expect((await served('/')).body).toBe(page('KOL Studio 二'));
    // A page loaded before still gets its own chunk, from the release it came from.
    const old = await app.inject({ method: 'GET', url: `/main.${chunkHash('KOL Studio 一')}.js` });
    expect(old.statusCode).toBe(200);
  });

  it('lists host_shell with the remotes', async () => {
    const listed = await kol('remote', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(HOST);
    expect(listed.out).toContain('mfe_fake');
  });

  it('rolls back by moving the pointer: the first page is served again', async () => {
    const rolled = await kol('remote', 'rollback', HOST, '--note', '标题错了');
    expect(rolled).toMatchObject({ code: 0, err: '' });
    expect(rolled.out).toContain(`host_shell: ${v[2]} → ${v[1]}  (rolled back)`);
    expect(await served('/')).toEqual({
      status: 200,
      body: page('KOL Studio 一'),
      cache: 'no-cache',
    });
    const promoted = await kol('remote', 'promote', HOST, v[2]);
    expect(promoted.code).toBe(0);
    expect((await served('/')).body).toBe(page('KOL Studio 二'));
  });

  it('refuses a host whose ranges an active remote does not fit, naming the remote', async () => {
    const dir = hostBuild(path.join(builds(), 'host-react20'), 'KOL Studio 三', [
      sharedSingleton('react', '20.0.0'),
      sharedSingleton('antd', '6.6.8'),
    ]);
    const refused = await kol('remote', 'release', HOST, '--dir', dir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Failed (400)');
    expect(refused.err).toContain('发布被拒绝（共享依赖检查）');
    expect(refused.err).toContain('远程模块 mfe_fake');
    expect(refused.err).toContain('共享依赖 react 的版本 19.3.2 不满足新宿主要求的 ^20.0.0');
    expect((await hostVersions()).active).toBe(v[2]);
    expect((await served('/')).body).toBe(page('KOL Studio 二'));
  });

  it('refuses a canary release of the host', async () => {
    hostBuild(path.join(builds(), 'host-canary'), 'KOL Studio 灰度');
    const refused = await kol('remote', 'release', HOST, '--dir', 'host-canary', '--canary', '10');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('不能灰度发布');
    expect((await hostVersions()).active).toBe(v[2]);
  });

  it('audits every host release, rollback and promote', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/admin/audit?limit=100',
      headers: admin,
    });
    const items = (body(response).data as { items: AuditEntry[] }).items
      .filter((e) => e.target === `remote:${HOST}`)
      .reverse();
    expect(items.map((e) => [e.actor, e.action, e.details.from, e.details.to])).toEqual([
      ['auto-publish', 'remote.release', null, v[1]],
      ['admin token (tester)', 'remote.release', v[1], v[2]],
      ['admin token (tester)', 'remote.rollback', v[2], v[1]],
      ['admin token (tester)', 'remote.promote', v[1], v[2]],
    ]);
  });

  it('checks a remote release against the active host release', async () => {
    // The released host requires react ^19.3.1; a remote on 18 is refused although the
    // host build folder says nothing about it any more.
    writeFileSync(path.join(workspace(), 'host-shell', 'dist', 'mf-manifest.json'), '{}');
    const dir = makeFakeBuild(path.join(builds(), 'remote-react18'), {
      name: 'mfe_fake',
      marker: 'react18',
      shared: [sharedSingleton('react', '18.2.0')],
    });
    const refused = await kol('remote', 'release', 'mfe_fake', '--dir', dir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('共享依赖 react 的版本 18.2.0 不满足宿主要求的 ^19.3.1');
  });
});
