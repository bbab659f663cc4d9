import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type {
  AuditEntry,
  RemoteAutoRollback,
  RemoteRegistry,
  RemoteVersions,
  StoredRemoteFailure,
} from '@kol/shared-sdk/contracts';
import { inCanary } from '../../src/releases/canary';
import { makeFakeBuild } from '../helpers/fake-build';
import {
  ADMIN_TOKEN,
  PC,
  body,
  createTestApp,
  createUser,
  login,
  testDataDir,
} from '../helpers/test-app';
import { runKol } from '../helpers/kol';

/**
 * Canary releases and the automatic rollback, on the server side: the canary share chosen by
 * user, the registry each signed-in user gets, promote and rollback ending the canary, and
 * the rollback the server makes on its own when enough signed-in users report a failure.
 */

let app: FastifyInstance;
let server: string;
const REMOTE = 'mfe_canary';
const builds = () => path.join(testDataDir(), 'builds');
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Signed-in users: [id, session cookie]. */
const users: Array<{ id: number; cookie: string }> = [];

beforeAll(async () => {
  ({ app } = await createTestApp());
  server = await app.listen({ port: 0, host: '127.0.0.1' });
  const accounts = [];
  for (let i = 0; i < 12; i++) accounts.push(await createUser(app));
  const listing = await app.inject({ method: 'GET', url: '/api/admin/users', headers: admin });
  const ids = new Map(
    (body(listing).data as { items: Array<{ userId: number; username: string }> }).items.map(
      (user) => [user.username, user.userId],
    ),
  );
  for (const { username, password } of accounts) {
    const id = ids.get(username);
    if (id === undefined) throw new Error(`user ${username} not listed`);
    users.push({ id, cookie: await login(app, username, password) });
  }
});
afterAll(async () => {
  await app.close();
});

const userAt = (index: number) => {
  const user = users[index];
  if (!user) throw new Error(`no user ${index}`);
  return user;
};
const cookieOf = (index: number) => userAt(index).cookie;
const idOf = (index: number) => userAt(index).id;

const build = (label: string) =>
  makeFakeBuild(path.join(builds(), label), { name: REMOTE, marker: label });

const kol = (...argv: string[]) => runKol(server, argv, { repoRoot: testDataDir(), cwd: builds() });

/** The version (and fallback) of REMOTE the registry answers this session (none: signed out). */
async function seen(cookie?: string) {
  const response = await app.inject({
    method: 'GET',
    url: '/api/platform/remotes',
    ...(cookie ? { cookies: { kol_session: cookie } } : {}),
  });
  expect(response.headers['cache-control']).toBe('no-cache');
  const entry = (body(response).data as RemoteRegistry).remotes.find((r) => r.name === REMOTE);
  return entry ? { version: entry.version, fallback: entry.lastKnownGood?.version ?? null } : null;
}

async function report(version: string, cookie?: string, message = 'ChunkLoadError: 387') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/platform/remote_failures',
    headers: PC,
    remoteAddress: `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    ...(cookie ? { cookies: { kol_session: cookie } } : {}),
    payload: { remote: REMOTE, version, phase: 'loadEntry', message },
  });
  expect(response.statusCode).toBe(200);
}

async function listed(): Promise<RemoteVersions> {
  const json = await kol('remote', 'list', REMOTE, '--json');
  const [entry] = (JSON.parse(json.out) as { items: RemoteVersions[] }).items;
  if (!entry) throw new Error('remote not listed');
  return entry;
}

async function audit(): Promise<AuditEntry[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/admin/audit?limit=200',
    headers: admin,
  });
  return (body(response).data as { items: AuditEntry[] }).items
    .filter((e) => e.target === `remote:${REMOTE}`)
    .reverse();
}

const versionOf = (out: string) => {
  const match = / → (\S+)/.exec(out);
  if (!match?.[1]) throw new Error(`no version in "${out}"`);
  return match[1];
};

describe('canary assignment', () => {
  it('gives one user the same answer every time and about the asked share of 1,000 users', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const picked = ids.filter((id) => inCanary(id, 'mfe_user', '0.1.0-aaaaaaaa', 10));
    expect(picked.length).toBeGreaterThanOrEqual(70);
    expect(picked.length).toBeLessThanOrEqual(130);
    // Stable: asked again, the same people.
    expect(ids.filter((id) => inCanary(id, 'mfe_user', '0.1.0-aaaaaaaa', 10))).toEqual(picked);
    // A wider share keeps everyone the narrower one had (the same buckets, more of them).
    for (const id of picked) expect(inCanary(id, 'mfe_user', '0.1.0-aaaaaaaa', 50)).toBe(true);
    const half = ids.filter((id) => inCanary(id, 'mfe_user', '0.1.0-aaaaaaaa', 50)).length;
    expect(Math.abs(half - 500)).toBeLessThanOrEqual(50);
    // Another release, or another remote, picks other people.
    const next = ids.filter((id) => inCanary(id, 'mfe_user', '0.1.0-bbbbbbbb', 10));
    const otherRemote = ids.filter((id) => inCanary(id, 'mfe_video', '0.1.0-aaaaaaaa', 10));
    const overlap = (a: number[], b: number[]) => a.filter((id) => b.includes(id)).length;
    expect(overlap(picked, next)).toBeLessThan(picked.length / 2);
    expect(overlap(picked, otherRemote)).toBeLessThan(picked.length / 2);
  });
});

describe('canary releases', () => {
  const v: Record<'stable' | 'c1' | 'c2' | 'c3' | 'fresh', string> = {
    stable: '',
    c1: '',
    c2: '',
    c3: '',
    fresh: '',
  };

  it('refuses a canary as a remote first release, and a share outside 1-99', async () => {
    const first = await kol(
      'remote',
      'release',
      REMOTE,
      '--dir',
      build('stable'),
      '--canary',
      '10',
    );
    expect(first.code).toBe(1);
    expect(first.err).toContain('Failed (409)');
    expect(first.err).toContain('首次发布不能灰度');
    for (const bad of ['0', '100', 'ten']) {
      const refused = await kol('remote', 'release', REMOTE, '--dir', 'stable', '--canary', bad);
      expect({ bad, code: refused.code }).toEqual({ bad, code: 2 });
    }
    const released = await kol('remote', 'release', REMOTE, '--dir', 'stable');
    expect(released.code).toBe(0);
    v.stable = versionOf(released.out);
  });

  it('releases a canary: the share of signed-in users chosen by user gets it, the rest keep stable', async () => {
    const released = await kol('remote', 'release', REMOTE, '--dir', build('c1'), '--canary', '50');
    expect(released).toMatchObject({ code: 0, err: '' });
    v.c1 = versionOf(released.out);
    expect(released.out).toContain(
      `${REMOTE}: ${v.stable} → ${v.c1}  (canary: 50% of signed-in users)`,
    );
    expect(released.out).toContain(`stable: ${v.stable} for everyone else`);

    const inIt = users.filter((u) => inCanary(u.id, REMOTE, v.c1, 50));
    expect(inIt.length).toBeGreaterThan(0);
    expect(inIt.length).toBeLessThan(users.length);
    for (const user of users) {
      const expected = inCanary(user.id, REMOTE, v.c1, 50)
        ? { version: v.c1, fallback: v.stable }
        : { version: v.stable, fallback: null };
      // The same answer at every load.
      expect(await seen(user.cookie)).toEqual(expected);
      expect(await seen(user.cookie)).toEqual(expected);
    }
    // Signed out (or with a session that is no more): the stable version.
    expect(await seen()).toEqual({ version: v.stable, fallback: null });
    expect(await seen('not-a-session')).toEqual({ version: v.stable, fallback: null });
  });

  it('lists the canary and its share, and refuses a second canary beside it', async () => {
    const table = await kol('remote', 'list', REMOTE);
    expect(table.out.split('\n').find((l) => l.includes(v.c1))).toMatch(/ canary 50% /);
    expect(table.out).toContain(
      `canary: ${REMOTE} ${v.c1} for 50% of signed-in users (stable ${v.stable})`,
    );
    expect(await listed()).toMatchObject({
      active: v.stable,
      canary: { version: v.c1, percent: 50, startedBy: 'admin token (tester)' },
    });

    const second = await kol('remote', 'release', REMOTE, '--dir', build('c2'), '--canary', '5');
    expect(second.code).toBe(1);
    expect(second.err).toContain('Failed (409)');
    expect(second.err).toContain(`灰度版本 ${v.c1}（50%）还在进行中`);
    expect((await listed()).canary?.version).toBe(v.c1);
  });

  it('promoting the canary version makes it everyone’s and ends the canary', async () => {
    const promoted = await kol('remote', 'promote', REMOTE, v.c1, '--note', '灰度通过');
    expect(promoted).toMatchObject({ code: 0, err: '' });
    expect(promoted.out).toContain(`${REMOTE}: ${v.stable} → ${v.c1}  (promoted)`);
    expect(promoted.out).toContain(`canary ended: ${v.c1} (everyone on ${v.c1})`);
    for (const user of users) expect((await seen(user.cookie))?.version).toBe(v.c1);
    expect(await seen()).toEqual({ version: v.c1, fallback: v.stable });
    expect(await listed()).toMatchObject({ active: v.c1, canary: null });
  });

  it('a rollback ends the canary: everyone back on the stable version, which never moved', async () => {
    const released = await kol('remote', 'release', REMOTE, '--dir', 'c2', '--canary', '99');
    expect(released.code).toBe(0);
    v.c2 = versionOf(released.out);
    expect(users.some((u) => inCanary(u.id, REMOTE, v.c2, 99))).toBe(true);

    const rolled = await kol('remote', 'rollback', REMOTE, '--note', '灰度有问题');
    expect(rolled).toMatchObject({ code: 0, err: '' });
    expect(rolled.out).toContain(`${REMOTE}: ${v.c2} → ${v.c1}  (rolled back)`);
    expect(rolled.out).toContain(`canary ended: ${v.c2}`);
    for (const user of users) expect((await seen(user.cookie))?.version).toBe(v.c1);
    expect(await listed()).toMatchObject({ active: v.c1, canary: null });
    // Nothing more to end: the next rollback is the usual undo, back to the first release.
    const undo = await kol('remote', 'rollback', REMOTE);
    expect(undo.out).toContain(`${REMOTE}: ${v.c1} → ${v.stable}  (rolled back)`);
    expect((await kol('remote', 'promote', REMOTE, v.c1)).code).toBe(0);
  });

  it('audits the canary, its promotion and its rollback', async () => {
    const items = await audit();
    expect(items.map((e) => [e.action, e.details.from, e.details.to])).toEqual([
      ['remote.release', null, v.stable],
      ['remote.canary', v.stable, v.c1],
      ['remote.promote', v.stable, v.c1],
      ['remote.canary', v.c1, v.c2],
      ['remote.rollback', v.c2, v.c1],
      ['remote.rollback', v.c1, v.stable],
      ['remote.promote', v.stable, v.c1],
    ]);
    expect(items[1]?.details).toMatchObject({ canaryPercent: 50 });
    expect(items[2]?.details).toMatchObject({ endedCanary: v.c1, note: '灰度通过' });
    expect(items[4]?.details).toMatchObject({ endedCanary: v.c2, note: '灰度有问题' });
  });

  describe('automatic rollback (3 distinct signed-in users in 10 minutes)', () => {
    it('never counts signed-out reports, nor many reports of one user, nor N-1 users', async () => {
      const released = await kol(
        'remote',
        'release',
        REMOTE,
        '--dir',
        build('c3'),
        '--canary',
        '20',
      );
      expect(released.code).toBe(0);
      v.c3 = versionOf(released.out);
      for (let i = 0; i < 6; i++) await report(v.c3);
      for (let i = 0; i < 4; i++) await report(v.c3, cookieOf(0));
      expect((await listed()).canary?.version).toBe(v.c3);
      await report(v.c3, cookieOf(1));
      // Two users, each more than once: still below three.
      await report(v.c3, cookieOf(1), 'TypeError: x is undefined');
      expect((await listed()).canary?.version).toBe(v.c3);
      // Reports of another version count for that version only.
      await report(v.c1, cookieOf(2));
      expect((await listed()).canary?.version).toBe(v.c3);
    });

    it('ends the canary at the third distinct signed-in user, audited with the reports', async () => {
      await report(v.c3, cookieOf(3));
      const after = await listed();
      expect(after).toMatchObject({ active: v.c1, canary: null });
      const version = after.versions.find((x) => x.version === v.c3);
      expect(version?.autoRolledBackAt).not.toBeNull();
      for (const user of users) expect((await seen(user.cookie))?.version).toBe(v.c1);

      const table = await kol('remote', 'list', REMOTE);
      expect(table.out.split('\n').find((l) => l.includes(v.c3))).toContain('auto-rolled back');

      const [entry] = (await audit()).filter((e) => e.action === 'remote.auto-rollback');
      expect(entry).toMatchObject({
        actor: 'auto-rollback',
        details: {
          from: v.c3,
          to: v.c1,
          canary: true,
          userCount: 3,
          minUsers: 3,
          windowMs: 600_000,
          errors: [
            { phase: 'loadEntry', message: 'ChunkLoadError: 387', count: 6 },
            { phase: 'loadEntry', message: 'TypeError: x is undefined', count: 1 },
          ],
        },
      });
      expect(entry?.details.users).toEqual([idOf(0), idOf(1), idOf(3)].sort((a, b) => a - b));
      expect(String(entry?.details.note)).toContain('自动回滚：3 位登录用户在 10 分钟内报告');

      // Later reports change nothing: the canary is over.
      await report(v.c3, cookieOf(4));
      expect((await audit()).filter((e) => e.action === 'remote.auto-rollback')).toHaveLength(1);
    });

    it('shows the automatic rollback with the failures, signed-in reports with their user', async () => {
      const failures = await kol('remote', 'failures', REMOTE);
      expect(failures.code).toBe(0);
      expect(failures.out).toContain('automatic rollbacks, newest first:');
      expect(failures.out).toMatch(
        new RegExp(
          `${REMOTE} ${v.c3.replace(/\./g, '\\.')} → ${v.c1.replace(/\./g, '\\.')} \\(canary ended\\), 3 signed-in user\\(s\\)`,
        ),
      );
      const json = await kol('remote', 'failures', REMOTE, '--json');
      const { items, autoRollbacks } = JSON.parse(json.out) as {
        items: StoredRemoteFailure[];
        autoRollbacks: RemoteAutoRollback[];
      };
      expect(items.filter((f) => f.userId === null)).toHaveLength(6);
      expect(autoRollbacks).toEqual([
        expect.objectContaining({ remote: REMOTE, version: v.c3, to: v.c1, canary: true }),
      ]);
    });

    it('rolls a fresh release back to the version before it', async () => {
      const released = await kol('remote', 'release', REMOTE, '--dir', build('fresh'));
      expect(released.code).toBe(0);
      v.fresh = versionOf(released.out);
      await report(v.fresh); // signed out
      await report(v.fresh, cookieOf(5));
      await report(v.fresh, cookieOf(6));
      expect((await listed()).active).toBe(v.fresh);
      await report(v.fresh, cookieOf(7), 'manifest 404');
      expect((await listed()).active).toBe(v.c1);
      const list = await kol('remote', 'list', REMOTE);
      // The activation is the server's; the version it took back is marked.
      const lines = list.out.split('\n');
      expect(lines.find((l) => l.includes(v.c1))).toMatch(/ active .* auto-rollback /);
      expect(lines.find((l) => l.includes(v.fresh))).toContain('auto-rolled back');
      const [, entry] = (await audit()).filter((e) => e.action === 'remote.auto-rollback');
      expect(entry?.details).toMatchObject({
        from: v.fresh,
        to: v.c1,
        canary: false,
        userCount: 3,
      });
      // The version the server went back to is not fresh by its hand: reports of it never
      // make the server roll back again (ops decide from here).
      for (const user of users.slice(8, 11)) await report(v.c1, user.cookie);
      expect((await listed()).active).toBe(v.c1);
    });

    it('leaves a release alone once it is older than the window', async () => {
      const back = await kol('remote', 'promote', REMOTE, v.fresh);
      expect(back.code).toBe(0);
      // As if it went out eleven minutes ago.
      await sql`UPDATE remote_activations SET activated_at = now() - interval '11 minutes'
                WHERE remote = ${REMOTE} AND version = ${v.fresh}`.execute(app.db);
      for (const user of users.slice(0, 4)) await report(v.fresh, user.cookie);
      expect((await listed()).active).toBe(v.fresh);
      expect((await audit()).filter((e) => e.action === 'remote.auto-rollback')).toHaveLength(2);
    });
  });
});
