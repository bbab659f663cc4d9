import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type {
  AuditEntry,
  RemoteChange,
  RemoteRegistry,
  RemoteVersions,
  StoredRemoteFailure,
} from '@kol/shared-sdk/contracts';
import { listBuildFiles } from '../../src/releases/build';
import { makeFakeBuild, sharedSingleton, type FakeBuildOptions } from '../helpers/fake-build';
import { ADMIN_TOKEN, PC, body, createTestApp, testDataDir } from '../helpers/test-app';
import { runKol } from '../helpers/kol';

/**
 * Release operations end to end on the server side: the admin API (through app.inject) and
 * the ops CLI (runCli against the listening app), with the registry checked after each move.
 */

let app: FastifyInstance;
let server: string;
const REMOTE = 'mfe_ops';
const repoRoot = () => path.join(testDataDir(), 'repo');
const builds = () => path.join(testDataDir(), 'builds');

/** The host's shared ranges, as the host build's mf-manifest.json gives them. */
const HOST_SHARED = [
  sharedSingleton('react', '19.3.1'),
  sharedSingleton('react-dom', '19.3.1'),
  sharedSingleton('antd', '6.6.8'),
];
const COMPATIBLE = [
  sharedSingleton('react', '19.3.2', '^19.3.1'),
  sharedSingleton('antd', '6.6.8'),
];

beforeAll(async () => {
  const hostDist = path.join(testDataDir(), 'host-dist');
  mkdirSync(hostDist, { recursive: true });
  writeFileSync(
    path.join(hostDist, 'mf-manifest.json'),
    JSON.stringify({ id: 'host_shell', name: 'host_shell', shared: HOST_SHARED }),
  );
  ({ app } = await createTestApp());
  server = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
});

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-kol-actor': 'api-tester' };

/** A build of REMOTE with the host-compatible singletons unless told otherwise. */
const build = (label: string, options: FakeBuildOptions = {}) =>
  makeFakeBuild(path.join(builds(), label), {
    name: REMOTE,
    marker: label,
    shared: COMPATIBLE,
    ...options,
  });

/** A multipart body built by hand, so a test can send any file name, hostile ones included. */
function multipart(fields: Record<string, string>, files: Array<[name: string, content: string]>) {
  const boundary = `----kol-test-${Math.random().toString(16).slice(2)}`;
  const chunks: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
  }
  for (const [name, content] of files) {
    chunks.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`,
    );
  }
  chunks.push(`--${boundary}--\r\n`);
  return {
    payload: Buffer.from(chunks.join(''), 'utf8'),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Releases a build folder through the admin API, as the CLI would but via app.inject. */
async function releaseViaApi(
  dir: string,
  fields: Record<string, string> = { remote: REMOTE },
  headers: Record<string, string> = admin,
) {
  const files = await listBuildFiles(dir);
  const { readFileSync } = await import('node:fs');
  const form = multipart(
    fields,
    files.map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]),
  );
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/remotes/release',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
  return { status: response.statusCode, ...body(response) };
}

async function uploadFiles(files: Array<[string, string]>, fields = { remote: REMOTE }) {
  const form = multipart(fields, files);
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/remotes/release',
    headers: { ...admin, ...form.headers },
    payload: form.payload,
  });
  return { status: response.statusCode, ...body(response) };
}

const kol = (...argv: string[]) => runKol(server, argv, { repoRoot: repoRoot(), cwd: builds() });

async function registryEntry() {
  const response = await app.inject({ method: 'GET', url: '/api/platform/remotes' });
  expect(response.headers['cache-control']).toBe('no-cache');
  const { remotes } = body(response).data as RemoteRegistry;
  const entry = remotes.find((r) => r.name === REMOTE);
  return entry
    ? { version: entry.version, lastKnownGood: entry.lastKnownGood?.version ?? null }
    : null;
}

async function reportFailure(version: string, message = 'ChunkLoadError: chunk 387 failed') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/platform/remote_failures',
    headers: PC,
    remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    payload: { remote: REMOTE, version, phase: 'loadEntry', message },
  });
  expect(response.statusCode).toBe(200);
}

const versionOf = (out: string) => {
  const match = / → (\S+)/.exec(out);
  if (!match?.[1]) throw new Error(`no version in "${out}"`);
  return match[1];
};

describe('remote release operations', () => {
  const v: Record<1 | 2 | 3, string> = { 1: '', 2: '', 3: '' };

  it('needs the admin token for every release operation', async () => {
    for (const [method, url] of [
      ['POST', '/api/admin/remotes/release'],
      ['GET', '/api/admin/remotes'],
      ['POST', '/api/admin/remotes/rollback'],
      ['POST', '/api/admin/remotes/promote'],
      ['GET', '/api/admin/remotes/failures'],
    ] as const) {
      const response = await app.inject({
        method,
        url,
        headers: { authorization: 'Bearer wrong' },
        payload: method === 'POST' ? { remote: REMOTE, version: '1' } : undefined,
      });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
    }
    const upload = multipart({ remote: REMOTE }, [['mf-manifest.json', '{}']]);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/admin/remotes/release',
      headers: upload.headers,
      payload: upload.payload,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await registryEntry()).toBeNull();
  });

  it('releases version 1 with the CLI from the default build folder', async () => {
    // mfe_ops ↔ <repo>/mfe-ops/dist, as mfe_user ↔ mfe-user/dist.
    build('v1', { extraFiles: { 'assets/logo.1a2b3c4d.svg': '<svg/>' } });
    makeFakeBuild(path.join(repoRoot(), 'mfe-ops', 'dist'), {
      name: REMOTE,
      marker: 'v1',
      shared: COMPATIBLE,
      extraFiles: { 'assets/logo.1a2b3c4d.svg': '<svg/>' },
    });
    const released = await kol('remote', 'release', REMOTE, '--note', '第一版');
    expect(released).toMatchObject({ code: 0, err: '' });
    expect(released.out).toMatch(/^mfe_ops: \(none\) → 0\.1\.0-[0-9a-f]{8} {2}\(released\)$/m);
    expect(released.out).toContain('last known good: (none)');
    v[1] = versionOf(released.out);
    expect(await registryEntry()).toEqual({ version: v[1], lastKnownGood: null });
    // Sub-folders arrive as they were; the stamp (a dotfile) is not part of the release.
    const folder = path.join(testDataDir(), 'releases', REMOTE, v[1]);
    expect(readdirSync(path.join(folder, 'assets'))).toEqual(['logo.1a2b3c4d.svg']);
    expect(existsSync(path.join(folder, '.build-stamp'))).toBe(false);
    const served = await app.inject({
      method: 'GET',
      url: `/remotes/${REMOTE}/${v[1]}/assets/logo.1a2b3c4d.svg`,
    });
    expect(served.body).toBe('<svg/>');
  });

  it('releases version 2 through the admin API; version 1 becomes last known good', async () => {
    const result = await releaseViaApi(build('v2'), { remote: REMOTE, note: 'second' });
    expect(result).toMatchObject({ status: 200, code: 0 });
    const change = result.data as RemoteChange;
    expect(change).toMatchObject({
      remote: REMOTE,
      action: 'release',
      from: v[1],
      note: 'second',
      lastKnownGood: v[1],
    });
    v[2] = change.to;
    expect(v[2]).not.toBe(v[1]);
    expect(await registryEntry()).toEqual({ version: v[2], lastKnownGood: v[1] });
  });

  it('refuses to release the same build twice', async () => {
    const again = await kol('remote', 'release', REMOTE, '--dir', 'v2');
    expect(again.code).toBe(1);
    expect(again.err).toContain('Failed (409)');
    expect(again.err).toContain('重复发布检查');
    expect(again.err).toContain(`版本 ${v[2]} 已经发布过`);
    expect(await registryEntry()).toEqual({ version: v[2], lastKnownGood: v[1] });
  });

  it('lists versions with the active one, the last known good one, who and when', async () => {
    const listed = await kol('remote', 'list', REMOTE);
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(
      /^REMOTE\s+VERSION\s+STATE\s+RELEASED\s+BY\s+LAST ACTIVATED\s+FAILURES\s+NOTE$/,
    );
    expect(lines.find((l) => l.includes(v[2]))).toMatch(
      /active .*admin token \(api-tester\).* second$/,
    );
    expect(lines.find((l) => l.includes(v[1]))).toMatch(
      /last known good .*admin token \(tester\).* 第一版$/,
    );
    expect(lines.at(-1)).toBe('2 version(s) of 1 remote(s)');

    const json = await kol('remote', 'list', '--json');
    const items = (JSON.parse(json.out) as { items: RemoteVersions[] }).items;
    expect(items.find((r) => r.remote === REMOTE)).toEqual({
      remote: REMOTE,
      active: v[2],
      lastKnownGood: v[1],
      canary: null,
      versions: [
        expect.objectContaining({ version: v[2], active: true, lastKnownGood: false, failures: 0 }),
        expect.objectContaining({
          version: v[1],
          active: false,
          lastKnownGood: true,
          failures: 0,
          createdBy: 'admin token (tester)',
          activatedBy: 'admin token (tester)',
          note: '第一版',
        }),
      ],
    });

    const unknown = await kol('remote', 'list', 'mfe_nothing');
    expect(unknown).toMatchObject({
      code: 1,
      err: 'Failed (404): 远程模块 mfe_nothing 还没有发布过任何版本',
    });
  });

  it('rolls back to the previous version with the CLI; the registry answers it at once', async () => {
    const rolled = await kol('remote', 'rollback', REMOTE, '--note', '2 坏了');
    expect(rolled).toMatchObject({ code: 0, err: '' });
    expect(rolled.out).toContain(`mfe_ops: ${v[2]} → ${v[1]}  (rolled back)`);
    expect(rolled.out).toContain(`last known good: ${v[2]}`);
    expect(await registryEntry()).toEqual({ version: v[1], lastKnownGood: v[2] });
    // No file was copied: the store holds the same two folders.
    expect(readdirSync(path.join(testDataDir(), 'releases', REMOTE)).sort()).toEqual(
      [v[1], v[2]].sort(),
    );
  });

  it('rolls back like an undo: twice goes two steps back, not back and forth', async () => {
    const third = await kol('remote', 'release', REMOTE, '--dir', build('v3'));
    expect(third.code).toBe(0);
    v[3] = versionOf(third.out);
    expect(await registryEntry()).toEqual({ version: v[3], lastKnownGood: v[1] });

    // v3 was released over v1 (v2 had been rolled back): undoing v3 gives v1.
    const back = await kol('remote', 'rollback', REMOTE);
    expect(back.out).toContain(`mfe_ops: ${v[3]} → ${v[1]}`);
    expect(await registryEntry()).toEqual({ version: v[1], lastKnownGood: v[3] });

    // v1 was the first release: there is nothing before it to undo to.
    const none = await kol('remote', 'rollback', REMOTE);
    expect(none.code).toBe(1);
    expect(none.err).toContain('Failed (409)');
    expect(none.err).toContain('没有更早启用过的版本可回滚');
    expect(await registryEntry()).toEqual({ version: v[1], lastKnownGood: v[3] });
  });

  it('rolls back to a named version and promotes any stored version', async () => {
    const named = await kol('remote', 'rollback', REMOTE, '--to', v[2]);
    expect(named.out).toContain(`mfe_ops: ${v[1]} → ${v[2]}  (rolled back)`);
    expect(await registryEntry()).toEqual({ version: v[2], lastKnownGood: v[1] });

    const promoted = await kol('remote', 'promote', REMOTE, v[3], '--note', '修好了');
    expect(promoted.out).toContain(`mfe_ops: ${v[2]} → ${v[3]}  (promoted)`);
    expect(promoted.out).toContain(`last known good: ${v[2]}`);
    expect(await registryEntry()).toEqual({ version: v[3], lastKnownGood: v[2] });

    // The API answers the same way as the CLI shows.
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/remotes/promote',
      headers: admin,
      payload: { remote: REMOTE, version: v[3] },
    });
    expect(response.statusCode).toBe(409);
    expect(body(response).msg).toBe(`${REMOTE} 当前启用的已经是版本 ${v[3]}`);

    const missing = await kol('remote', 'promote', REMOTE, '0.1.0-00000000');
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.err).toContain('Failed (404)');
    expect(missing.err).toContain('没有已发布的版本 0.1.0-00000000');
    const unknownRemote = await kol('remote', 'rollback', 'mfe_nothing');
    expect(unknownRemote.err).toBe('Failed (404): 远程模块 mfe_nothing 还没有发布过任何版本');
    const badName = await kol('remote', 'rollback', REMOTE, '--to', '../x');
    expect(badName.code).toBe(1);
    expect(badName.err).toContain('Failed (400)');
    expect((await kol('remote', 'promote', REMOTE)).code).toBe(2);
    expect((await kol('remote', 'rollback')).code).toBe(2);
  });

  it('never takes a version with reported load failures as last known good', async () => {
    // Active v3; activated before it, newest first: v2, v1, v3, v1, v2, v1.
    expect(await registryEntry()).toEqual({ version: v[3], lastKnownGood: v[2] });
    await reportFailure(v[2]);
    expect(await registryEntry()).toEqual({ version: v[3], lastKnownGood: v[1] });
    await reportFailure(v[1], 'manifest 404');
    expect(await registryEntry()).toEqual({ version: v[3], lastKnownGood: null });

    // Rolling back to a failing version is ops' call; its fallback is the clean v3.
    const back = await kol('remote', 'rollback', REMOTE, '--to', v[2]);
    expect(back.out).toContain(`last known good: ${v[3]}`);
    expect(await registryEntry()).toEqual({ version: v[2], lastKnownGood: v[3] });
    await reportFailure(v[2], 'chunk failed again');
    // Back on v3: every other version has failed in browsers, so there is no fallback.
    const promoted = await kol('remote', 'promote', REMOTE, v[3]);
    expect(promoted.out).toContain('last known good: (none)');
    expect(await registryEntry()).toEqual({ version: v[3], lastKnownGood: null });

    const json = await kol('remote', 'list', REMOTE, '--json');
    const [entry] = (JSON.parse(json.out) as { items: RemoteVersions[] }).items;
    expect(entry).toMatchObject({ active: v[3], lastKnownGood: null });
    expect(entry?.versions.map((x) => [x.version, x.failures, x.active, x.lastKnownGood])).toEqual([
      [v[3], 0, true, false],
      [v[2], 2, false, false],
      [v[1], 1, false, false],
    ]);
  });

  it('lists the load failures browsers reported, newest first', async () => {
    const listed = await kol('remote', 'failures', REMOTE);
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(/^WHEN\s+USER\s+COUNTED\s+REMOTE\s+VERSION\s+PHASE\s+MESSAGE$/);
    // Reported by signed-out browsers: no user, and never counted towards a rollback.
    expect(lines[1]).toMatch(/^\S+\s+-\s+no\s+mfe_ops/);
    expect(lines[1]).toContain(`${REMOTE}  ${v[2]}  loadEntry  chunk failed again`);
    expect(lines[2]).toContain(`${v[1]}  loadEntry  manifest 404`);
    expect(lines.at(-1)).toBe('3 failure(s)');

    const all = await kol('remote', 'failures', '--json', '--limit', '2');
    const items = (JSON.parse(all.out) as { items: StoredRemoteFailure[] }).items;
    expect(items.map((f) => f.message)).toEqual(['chunk failed again', 'manifest 404']);
    expect((await kol('remote', 'failures', 'mfe_nothing')).out).toContain('0 failure(s)');
  });

  it('writes an audit record for every release, rollback and promote', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/admin/audit?limit=100',
      headers: admin,
    });
    const items = (body(response).data as { items: AuditEntry[] }).items
      .filter((e) => e.target === `remote:${REMOTE}`)
      .reverse();
    expect(items.map((e) => [e.action, e.details.from, e.details.to])).toEqual([
      ['remote.release', null, v[1]],
      ['remote.release', v[1], v[2]],
      ['remote.rollback', v[2], v[1]],
      ['remote.release', v[1], v[3]],
      ['remote.rollback', v[3], v[1]],
      ['remote.rollback', v[1], v[2]],
      ['remote.promote', v[2], v[3]],
      ['remote.rollback', v[3], v[2]],
      ['remote.promote', v[2], v[3]],
    ]);
    expect(items[0]).toMatchObject({ actor: 'admin token (tester)', details: { note: '第一版' } });
    expect(items[1]).toMatchObject({
      actor: 'admin token (api-tester)',
      details: { note: 'second' },
    });
    expect(items[2]?.details.note).toBe('2 坏了');
    expect(items[6]?.details.note).toBe('修好了');
    for (const item of items) expect(Date.parse(item.createdAt)).not.toBeNaN();
  });
});

describe('refused releases', () => {
  let before: Awaited<ReturnType<typeof registryEntry>>;
  beforeAll(async () => {
    before = await registryEntry();
  });
  afterAll(async () => {
    // No refusal moved the pointer.
    expect(await registryEntry()).toEqual(before);
  });

  it('refuses a shared singleton outside the host range, naming it', async () => {
    const dir = build('old-react', {
      shared: [sharedSingleton('react', '18.2.0'), sharedSingleton('antd', '6.6.8')],
    });
    const result = await releaseViaApi(dir);
    expect(result).toMatchObject({
      status: 400,
      msg: '发布被拒绝（共享依赖检查）：共享依赖 react 的版本 18.2.0 不满足宿主要求的 ^19.3.1',
    });
    const cli = await kol('remote', 'release', REMOTE, '--dir', dir);
    expect(cli.code).toBe(1);
    expect(cli.err).toContain('共享依赖 react 的版本 18.2.0 不满足宿主要求的 ^19.3.1');
  });

  it('refuses a build without a manifest', async () => {
    const result = await releaseViaApi(build('no-manifest', { omit: ['mf-manifest.json'] }));
    expect(result).toMatchObject({ status: 400 });
    expect(result.msg).toBe('发布被拒绝（清单检查）：缺少 mf-manifest.json');
    // Nothing uploaded at all is the same refusal.
    expect((await uploadFiles([])).msg).toBe('发布被拒绝（清单检查）：缺少 mf-manifest.json');
  });

  it('refuses missing or malformed route claims', async () => {
    const missing = await releaseViaApi(build('no-claims', { omit: ['kol-routes.json'] }));
    expect(missing.msg).toBe('发布被拒绝（路由声明检查）：缺少 kol-routes.json');
    const bad = await releaseViaApi(
      build('bad-claims', { routes: [{ path: 'ops', layout: 'inside' }] }),
    );
    expect(bad).toMatchObject({ status: 400 });
    expect(bad.msg).toContain('路由声明检查');
  });

  it('refuses a manifest of another remote', async () => {
    const result = await releaseViaApi(build('other-name'), { remote: 'mfe_other' });
    expect(result.msg).toContain('名称检查');
  });

  it('refuses upload file names that could leave the upload folder', async () => {
    const outside = path.join(os.tmpdir(), `kol-evil-${process.pid}.js`);
    for (const name of [
      `../kol-evil-${process.pid}.js`,
      `a/../../kol-evil-${process.pid}.js`,
      outside,
      'a\\..\\..\\evil.js',
      'C:/evil.js',
      '.env',
      'assets/.hidden.js',
      'a//b.js',
      './mf-manifest.json',
    ]) {
      const result = await uploadFiles([
        ['mf-manifest.json', JSON.stringify({ name: REMOTE })],
        [name, 'alert(1)'],
      ]);
      expect({ name, status: result.status }).toEqual({ name, status: 400 });
      expect(result.msg).toContain('发布被拒绝（文件检查）：上传的文件名');
    }
    expect(existsSync(outside)).toBe(false);
    // This process's upload folders (the other database's run may be uploading beside it).
    const mine = `kol-release-upload-${process.pid}-`;
    expect(readdirSync(os.tmpdir()).filter((f) => f.startsWith(mine))).toEqual([]);
  });

  it('refuses the same path twice, a missing remote field and too many files', async () => {
    const twice = await uploadFiles([
      ['a.js', '1'],
      ['a.js', '2'],
    ]);
    expect(twice).toMatchObject({
      status: 400,
      msg: '发布被拒绝（文件检查）：文件 a.js 上传了两次',
    });
    const noRemote = await uploadFiles([['a.js', '1']], {} as { remote: string });
    expect(noRemote).toMatchObject({
      status: 400,
      msg: '缺少字段 remote（远程模块名，如 mfe_user）',
    });
    const many = await uploadFiles(
      Array.from({ length: 2001 }, (_, i): [string, string] => [`f${i}.js`, '']),
    );
    expect(many).toMatchObject({
      status: 413,
      msg: '发布被拒绝（文件检查）：构建目录最多 2000 个文件',
    });
    const notMultipart = await app.inject({
      method: 'POST',
      url: '/api/admin/remotes/release',
      headers: admin,
      payload: { remote: REMOTE },
    });
    expect(notMultipart.statusCode).toBe(400);
  });

  it('tells the CLI user to build first when the build folder is missing', async () => {
    const missing = await kol('remote', 'release', 'mfe_absent');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(path.join(repoRoot(), 'mfe-absent', 'dist'));
    expect(missing.err).toContain('pnpm --filter @kol/mfe-absent build');
  });
});
