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
import { releaseKey } from '../../src/releases/store';
import { makeFakeBuild } from '../helpers/fake-build';
import {
  ADMIN_TOKEN,
  PC,
  body,
  createTestApp,
  createUser,
  sessionCookie,
  testDataDir,
} from '../helpers/test-app';
import { runKol } from '../helpers/kol';
import { metricValue, scrapeApp } from '../helpers/scrape';

/**
 * Canary releases and the automatic rollback, on the server side: the canary share chosen by
 * user, the registry each signed-in user gets, promote and rollback ending the canary, and
 * the rollback the server makes on its own when enough of the users it served a version
 * report a failure (and never on reports of users it did not serve it).
 */

let app: FastifyInstance;
let server: string;
const REMOTE = 'mfe_canary';
const builds = () => path.join(testDataDir(), 'builds');
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface User {
  id: number;
  cookie: string;
}

/** Signed-in users. */
const users: User[] = [];

/** A new user signed in, as a browser that has loaded nothing yet. */
async function signIn(): Promise<User> {
  const { username, password } = await createUser(app);
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers: PC,
    payload: { username, password },
  });
  return {
    id: (body(response).data as { userId: number }).userId,
    cookie: sessionCookie(response),
  };
}

/**
 * Users, `inside` of them picked by the canary `version` of `remote` at `percent` and
 * `outside` of them not: which ones is up to the hash of their id, so after the `known` ones,
 * new users are made until there are enough of each.
 */
async function usersAround(
  canary: { remote: string; version: string; percent: number },
  want: { inside: number; outside: number },
  known: readonly User[] = [],
): Promise<{ inside: User[]; outside: User[] }> {
  const inside: User[] = [];
  const outside: User[] = [];
  for (let made = 0; inside.length < want.inside || outside.length < want.outside; made++) {
    if (made >= known.length + 20 * (want.inside + want.outside))
      throw new Error(`${made} users tried`);
    const user = known[made] ?? (await signIn());
    if (inCanary(user.id, canary.remote, canary.version, canary.percent)) {
      if (inside.length < want.inside) inside.push(user);
    } else if (outside.length < want.outside) outside.push(user);
  }
  return { inside, outside };
}

beforeAll(async () => {
  ({ app } = await createTestApp());
  server = await app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 12; i++) users.push(await signIn());
});
afterAll(async () => {
  await app.close();
});

const build = (label: string, remote = REMOTE) =>
  makeFakeBuild(path.join(builds(), label), { name: remote, marker: label });

const kol = (...argv: string[]) => runKol(server, argv, { repoRoot: testDataDir(), cwd: builds() });

/**
 * The version (and fallback) of a remote the registry answers this session (none: signed out),
 * as the shell reads it at every page load.
 */
async function seen(cookie?: string, remote = REMOTE) {
  const response = await app.inject({
    method: 'GET',
    url: '/api/platform/remotes',
    ...(cookie ? { cookies: { kol_session: cookie } } : {}),
  });
  expect(response.headers['cache-control']).toBe('no-cache');
  const entry = (body(response).data as RemoteRegistry).remotes.find((r) => r.name === remote);
  return entry ? { version: entry.version, fallback: entry.lastKnownGood?.version ?? null } : null;
}

async function report(
  version: string,
  cookie?: string,
  message = 'ChunkLoadError: 387',
  remote = REMOTE,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/platform/remote_failures',
    headers: PC,
    remoteAddress: `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    ...(cookie ? { cookies: { kol_session: cookie } } : {}),
    payload: { remote, version, phase: 'loadEntry', message },
  });
  expect(response.statusCode).toBe(200);
}

async function listed(remote = REMOTE): Promise<RemoteVersions> {
  const json = await kol('remote', 'list', remote, '--json');
  const [entry] = (JSON.parse(json.out) as { items: RemoteVersions[] }).items;
  if (!entry) throw new Error('remote not listed');
  return entry;
}

async function audit(remote = REMOTE): Promise<AuditEntry[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/admin/audit?limit=200',
    headers: admin,
  });
  return (body(response).data as { items: AuditEntry[] }).items
    .filter((e) => e.target === `remote:${remote}`)
    .reverse();
}

const autoRollbacks = async (remote = REMOTE) =>
  (await audit(remote)).filter((e) => e.action === 'remote.auto-rollback');

/** The stored reports of a version, oldest first, as `remote failures --json` lists them. */
async function reportsOf(version: string, remote = REMOTE): Promise<StoredRemoteFailure[]> {
  const json = await kol('remote', 'failures', remote, '--json', '--limit', '1000');
  return (JSON.parse(json.out) as { items: StoredRemoteFailure[] }).items
    .filter((f) => f.version === version)
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

  describe('automatic rollback (3 distinct served users, 20% of those served, in 10 minutes)', () => {
    /** Users the canary c3 (50%) picks, and users it leaves on the stable version. */
    let share: User[] = [];
    let outside: User[] = [];
    const shareAt = (index: number) => {
      const user = share[index];
      if (!user) throw new Error(`no user ${index} in the canary's share`);
      return user;
    };

    it('counts no report of a version the server did not hand the user: fake reporters change nothing', async () => {
      const released = await kol(
        'remote',
        'release',
        REMOTE,
        '--dir',
        build('c3'),
        '--canary',
        '50',
      );
      expect(released.code).toBe(0);
      v.c3 = versionOf(released.out);
      // None of them has loaded a page since the canary started.
      ({ inside: share, outside } = await usersAround(
        { remote: REMOTE, version: v.c3, percent: 50 },
        { inside: 4, outside: 4 },
        users,
      ));

      // Signed out: never.
      for (let i = 0; i < 6; i++) await report(v.c3);
      // Outside the canary's share: the registry gives them the stable version, not the canary.
      for (const user of outside.slice(0, 3)) {
        expect((await seen(user.cookie))?.version).toBe(v.c1);
        await report(v.c3, user.cookie);
      }
      // In its share, but their browsers never asked for the registry since it started: nobody
      // handed them the canary.
      for (const user of share.slice(0, 3)) await report(v.c3, user.cookie);
      // Even a served record would not make a user outside the share count (the registry
      // never writes one: the canary's cohort is checked on its own).
      const forged = outside[3];
      if (!forged) throw new Error('no fourth user outside the share');
      await sql`INSERT INTO remote_serves (remote, version, user_id)
                VALUES (${REMOTE}, ${v.c3}, ${forged.id})`.execute(app.db);
      await report(v.c3, forged.cookie);
      await sql`DELETE FROM remote_serves
                WHERE remote = ${REMOTE} AND version = ${v.c3} AND user_id = ${forged.id}`.execute(
        app.db,
      );

      // Seven signed-in accounts, more than twice the three users needed: nothing moved.
      expect(await listed()).toMatchObject({ active: v.c1, canary: { version: v.c3 } });
      expect(await autoRollbacks()).toEqual([]);
      const stored = await reportsOf(v.c3);
      expect(stored).toHaveLength(13);
      expect(stored.filter((f) => f.counted)).toEqual([]);
      expect(new Set(stored.flatMap((f) => (f.userId === null ? [] : [f.userId]))).size).toBe(7);
      // Ops see them as a rate, under one label value: a forger names no series.
      const metrics = await scrapeApp(app, ADMIN_TOKEN);
      expect(metricValue(metrics, 'kol_remote_load_failures_total', { remote: 'unverified' })).toBe(
        13,
      );
      expect(metricValue(metrics, 'kol_remote_load_failures_total', { remote: REMOTE })).toBe(0);
      expect(metricValue(metrics, 'kol_remote_canary_share_ratio', { remote: REMOTE })).toBe(0.5);
    });

    it('never counts many reports of one served user, nor N-1 served users', async () => {
      const [a, b] = [shareAt(0), shareAt(1)];
      expect(await seen(a.cookie)).toEqual({ version: v.c3, fallback: v.c1 });
      for (let i = 0; i < 4; i++) await report(v.c3, a.cookie);
      expect((await listed()).canary?.version).toBe(v.c3);
      expect(await seen(b.cookie)).toEqual({ version: v.c3, fallback: v.c1 });
      await report(v.c3, b.cookie);
      // Two users, each more than once: still below three.
      await report(v.c3, b.cookie, 'TypeError: x is undefined');
      expect((await listed()).canary?.version).toBe(v.c3);
      // Reports of another version (here the fallback a was handed) count for that one only.
      await report(v.c1, a.cookie);
      expect((await listed()).canary?.version).toBe(v.c3);
      expect((await reportsOf(v.c3)).filter((f) => f.counted)).toHaveLength(6);
      expect((await reportsOf(v.c1)).at(-1)).toMatchObject({ userId: a.id, counted: true });
    });

    it('ends the canary at the third distinct served user of its share, audited with the reports and the files check', async () => {
      const [c, d] = [shareAt(2), shareAt(3)];
      // A fourth user of the share loads it and has no trouble: served, reporting nothing.
      expect((await seen(d.cookie))?.version).toBe(v.c3);
      // c's report before was not counted (not served then); served now, it counts.
      expect((await seen(c.cookie))?.version).toBe(v.c3);
      await report(v.c3, c.cookie);
      const after = await listed();
      expect(after).toMatchObject({ active: v.c1, canary: null });
      const metrics = await scrapeApp(app, ADMIN_TOKEN);
      expect(metricValue(metrics, 'kol_remote_auto_rollbacks_total', { remote: REMOTE })).toBe(1);
      // a's 4 and b's 2 before, c's now; a's report of the fallback is its own series.
      expect(
        metricValue(metrics, 'kol_remote_load_failures_total', { remote: REMOTE, version: v.c3 }),
      ).toBe(7);
      expect(
        metricValue(metrics, 'kol_remote_load_failures_total', { remote: REMOTE, version: v.c1 }),
      ).toBe(1);
      // The canary is over: no share left to show.
      expect(metrics.find((m) => m.name === 'kol_remote_canary_share_ratio')?.metrics).toEqual([]);
      const version = after.versions.find((x) => x.version === v.c3);
      expect(version?.autoRolledBackAt).not.toBeNull();
      expect(version?.autoRollbackFiles).toBe('ok');
      for (const user of [...users, ...share])
        expect((await seen(user.cookie))?.version).toBe(v.c1);

      const table = await kol('remote', 'list', REMOTE);
      expect(table.out.split('\n').find((l) => l.includes(v.c3))).toContain(
        'auto-rolled back (files ok)',
      );

      const [entry] = await autoRollbacks();
      expect(entry).toMatchObject({
        actor: 'auto-rollback',
        details: {
          from: v.c3,
          to: v.c1,
          canary: true,
          userCount: 3,
          minUsers: 3,
          // a, b, c and d were handed it in the window.
          servedUsers: 4,
          sharePercent: 20,
          windowMs: 600_000,
          errors: [
            { phase: 'loadEntry', message: 'ChunkLoadError: 387', count: 6 },
            { phase: 'loadEntry', message: 'TypeError: x is undefined', count: 1 },
          ],
          files: { status: 'ok' },
        },
      });
      expect(entry?.details.users).toEqual(
        [shareAt(0).id, shareAt(1).id, c.id].sort((x, y) => x - y),
      );
      expect(String(entry?.details.note)).toContain(
        '自动回滚：3 位登录用户在 10 分钟内报告 ' +
          `${v.c3} 加载失败（该时段获发此版本的 4 位用户中的 75%）`,
      );
      expect(String(entry?.details.note)).toContain(
        `；文件检查正常：清单可读，入口文件 ${REMOTE}/${v.c3}/remoteEntry.js 存在`,
      );

      // Later reports change nothing: the canary is over.
      await report(v.c3, d.cookie);
      expect(await autoRollbacks()).toHaveLength(1);
    });

    it('shows the automatic rollback with the failures, each report with its user and whether it counted', async () => {
      const failures = await kol('remote', 'failures', REMOTE);
      expect(failures.code).toBe(0);
      const lines = failures.out.split('\n');
      expect(lines[0]).toMatch(/^WHEN\s+USER\s+COUNTED\s+REMOTE\s+VERSION\s+PHASE\s+MESSAGE$/);
      expect(failures.out).toContain('automatic rollbacks, newest first:');
      const ids = [shareAt(0).id, shareAt(1).id, shareAt(2).id].sort((x, y) => x - y).join(', ');
      expect(failures.out).toContain(
        `${REMOTE} ${v.c3} → ${v.c1} (canary ended), 3 signed-in user(s) (${ids}) ` +
          'of 4 served (share needed 20%) within 600 s: loadEntry ChunkLoadError: 387',
      );
      expect(failures.out).toContain(
        `    files ok: 清单可读，入口文件 ${REMOTE}/${v.c3}/remoteEntry.js 存在`,
      );
      // A fake reporter's line: kept, marked as not counted.
      const fake = outside[0];
      expect(lines.find((l) => new RegExp(`\\s${fake?.id}\\s`).test(l))).toMatch(
        new RegExp(`\\s${fake?.id}\\s+no\\s+${REMOTE}\\s+${v.c3.replace(/\./g, '\\.')}\\s`),
      );
      expect(lines.filter((l) => /^\S+\s+-\s+no\s/.test(l))).toHaveLength(6);

      const json = await kol('remote', 'failures', REMOTE, '--json');
      const { items, autoRollbacks: rollbacks } = JSON.parse(json.out) as {
        items: StoredRemoteFailure[];
        autoRollbacks: RemoteAutoRollback[];
      };
      expect(items.filter((f) => f.userId === null)).toHaveLength(6);
      expect(items.filter((f) => f.userId === null && f.counted)).toEqual([]);
      expect(rollbacks).toEqual([
        expect.objectContaining({
          remote: REMOTE,
          version: v.c3,
          to: v.c1,
          canary: true,
          servedUsers: 4,
          sharePercent: 20,
          files: expect.objectContaining({ status: 'ok' }),
        }),
      ]);
    });

    it('rolls a fresh release back to the version before it once three served users report it', async () => {
      const released = await kol('remote', 'release', REMOTE, '--dir', build('fresh'));
      expect(released.code).toBe(0);
      v.fresh = versionOf(released.out);
      const [e, f, g] = users.slice(5, 8) as [User, User, User];
      // e reports before any page of theirs asked for it: not handed it, not counted.
      await report(v.fresh, e.cookie);
      await report(v.fresh); // signed out
      for (const user of [e, f]) {
        expect((await seen(user.cookie))?.version).toBe(v.fresh);
        await report(v.fresh, user.cookie);
      }
      expect((await listed()).active).toBe(v.fresh);
      expect((await seen(g.cookie))?.version).toBe(v.fresh);
      await report(v.fresh, g.cookie, 'manifest 404');
      expect((await listed()).active).toBe(v.c1);
      expect((await reportsOf(v.fresh)).map((x) => [x.userId, x.counted])).toEqual([
        [e.id, false],
        [null, false],
        [e.id, true],
        [f.id, true],
        [g.id, true],
      ]);
      const list = await kol('remote', 'list', REMOTE);
      // The activation is the server's; the version it took back is marked.
      const lines = list.out.split('\n');
      expect(lines.find((l) => l.includes(v.c1))).toMatch(/ active .* auto-rollback /);
      expect(lines.find((l) => l.includes(v.fresh))).toContain('auto-rolled back (files ok)');
      const [, entry] = await autoRollbacks();
      expect(entry?.details).toMatchObject({
        from: v.fresh,
        to: v.c1,
        canary: false,
        userCount: 3,
        servedUsers: 3,
      });
      // The version the server went back to is not fresh by its hand: reports of it, from users
      // it was handed to, never make the server roll back again (ops decide from here).
      for (const user of users.slice(8, 11)) {
        expect((await seen(user.cookie))?.version).toBe(v.c1);
        await report(v.c1, user.cookie);
      }
      expect((await listed()).active).toBe(v.c1);
      expect((await reportsOf(v.c1)).slice(-3).every((x) => x.counted)).toBe(true);
    });

    it('counts only users served a version since it last went out', async () => {
      const back = await kol('remote', 'promote', REMOTE, v.fresh);
      expect(back.code).toBe(0);
      // e, f and g were handed it before it was rolled back; their pages did not load it again.
      for (const user of users.slice(5, 8)) await report(v.fresh, user.cookie);
      expect((await listed()).active).toBe(v.fresh);
      expect((await reportsOf(v.fresh)).slice(-3).some((x) => x.counted)).toBe(false);
    });

    it('leaves a release alone once it is older than the window', async () => {
      // As if it went out eleven minutes ago.
      await sql`UPDATE remote_activations SET activated_at = now() - interval '11 minutes'
                WHERE remote = ${REMOTE} AND version = ${v.fresh}`.execute(app.db);
      for (const user of users.slice(0, 4)) {
        expect((await seen(user.cookie))?.version).toBe(v.fresh);
        await report(v.fresh, user.cookie);
      }
      expect((await reportsOf(v.fresh)).slice(-4).every((x) => x.counted)).toBe(true);
      expect((await listed()).active).toBe(v.fresh);
      expect(await autoRollbacks()).toHaveLength(2);
    });
  });
});

describe('automatic rollback needs its share of the users served the version', () => {
  const SHARE = 'mfe_share';

  it('3 served reporters of 16 users served in the window (19%) leave it; of 15 (20%) end it', async () => {
    expect((await kol('remote', 'release', SHARE, '--dir', build('share-1', SHARE))).code).toBe(0);
    const released = await kol(
      'remote',
      'release',
      SHARE,
      '--dir',
      build('share-2', SHARE),
      '--canary',
      '99',
    );
    expect(released.code).toBe(0);
    const canary = versionOf(released.out);
    // Signed-in users of the tests before, and new ones if need be.
    const { inside: people } = await usersAround(
      { remote: SHARE, version: canary, percent: 99 },
      { inside: 16, outside: 0 },
      users,
    );
    for (const person of people) expect((await seen(person.cookie, SHARE))?.version).toBe(canary);

    const [first, , , , , , , , , , , , , , , last] = people;
    if (!first || !last) throw new Error('16 users expected');
    const reporters = people.slice(0, 3);
    for (const person of reporters) await report(canary, person.cookie, 'ChunkLoadError', SHARE);
    // Three served users, enough by number, but 3 of 16 is under 20%: no outage, a few accounts.
    expect((await listed(SHARE)).canary?.version).toBe(canary);
    expect((await reportsOf(canary, SHARE)).every((x) => x.counted)).toBe(true);
    expect(await autoRollbacks(SHARE)).toEqual([]);

    // The canary has run for an hour; the last of the 16 loaded a page 30 minutes ago, before
    // the window: 3 of the 15 served in it.
    await sql`UPDATE remote_canaries SET started_at = now() - interval '1 hour'
              WHERE remote = ${SHARE} AND version = ${canary}`.execute(app.db);
    await sql`UPDATE remote_serves SET last_served_at = now() - interval '30 minutes'
              WHERE remote = ${SHARE} AND user_id = ${last.id}`.execute(app.db);
    await report(canary, first.cookie, 'ChunkLoadError', SHARE);
    expect((await listed(SHARE)).canary).toBeNull();
    const [entry] = await autoRollbacks(SHARE);
    expect(entry?.details).toMatchObject({
      from: canary,
      canary: true,
      userCount: 3,
      servedUsers: 15,
      sharePercent: 20,
    });
  });
});

describe('automatic rollback checks the failing version’s files first', () => {
  const FILES = 'mfe_files';
  const entryKey = (version: string) => releaseKey(FILES, version, 'remoteEntry.js');

  /** Releases `label` to everyone; three users load it and report it failing (each time). */
  async function releaseAndFail(label: string, breakFiles: (version: string) => Promise<void>) {
    const released = await kol('remote', 'release', FILES, '--dir', build(label, FILES));
    expect(released.code).toBe(0);
    const version = versionOf(released.out);
    await breakFiles(version);
    for (const person of users.slice(0, 3)) {
      expect((await seen(person.cookie, FILES))?.version).toBe(version);
      await report(version, person.cookie, 'ScriptExternalLoadError', FILES);
    }
    return version;
  }

  it('records a missing or empty entry file as the cause, and a whole release as such', async () => {
    expect((await kol('remote', 'release', FILES, '--dir', build('files-1', FILES))).code).toBe(0);
    const missing = await releaseAndFail('files-2', (version) =>
      app.releases.store.files.remove(entryKey(version)),
    );
    const empty = await releaseAndFail('files-3', (version) =>
      app.releases.store.files.putBytes(entryKey(version), ''),
    );
    const whole = await releaseAndFail('files-4', async () => {});

    const rollbacks = (await autoRollbacks(FILES)).map((e) => e.details);
    expect(rollbacks).toEqual([
      expect.objectContaining({
        from: missing,
        files: { status: 'entry-missing', detail: `发布存储中没有入口文件 ${entryKey(missing)}` },
      }),
      expect.objectContaining({
        from: empty,
        files: { status: 'entry-empty', detail: `入口文件 ${entryKey(empty)} 是空的` },
      }),
      expect.objectContaining({
        from: whole,
        files: expect.objectContaining({ status: 'ok' }),
      }),
    ]);
    expect(String(rollbacks[0]?.note)).toContain(
      `；原因：版本文件损坏，发布存储中没有入口文件 ${entryKey(missing)}`,
    );
    expect(String(rollbacks[2]?.note)).toContain('；文件检查正常：');

    const list = (await kol('remote', 'list', FILES)).out.split('\n');
    expect(list.find((l) => l.includes(missing))).toContain(
      'auto-rolled back (files entry-missing)',
    );
    expect(list.find((l) => l.includes(empty))).toContain('auto-rolled back (files entry-empty)');
    expect(list.find((l) => l.includes(whole))).toContain('auto-rolled back (files ok)');
    const failures = (await kol('remote', 'failures', FILES)).out;
    expect(failures).toContain(
      `    files broken (entry-missing): 发布存储中没有入口文件 ${entryKey(missing)}`,
    );
    expect(failures).toContain(
      `    files broken (entry-empty): 入口文件 ${entryKey(empty)} 是空的`,
    );
  });
});
