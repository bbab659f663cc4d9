import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { PC, body, createTestApp, login, uniqueName } from '../helpers/test-app';
import { runKol } from '../helpers/kol';
import { runCli } from '../../src/cli/run';

let app: FastifyInstance;
let server: string;

beforeAll(async () => {
  ({ app } = await createTestApp());
  server = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
});

/** Runs the CLI as `pnpm kol …` would, against the server of this file. */
const kol = (...argv: string[]) => runKol(server, argv);

describe('ops CLI against the admin API', () => {
  it('creates, lists, changes and disables a user, each audited', async () => {
    const username = uniqueName('cli');
    const created = await kol(
      'user',
      'create',
      '--username',
      username,
      '--password',
      'long-password',
      '--nickname',
      '作者甲',
      '--template-ids',
      '0,1,2',
      '--functional-level',
      '1',
    );
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toContain(`Created user ${username}`);
    expect(created.out).toContain('template ids [0,1,2]');

    const cookie = await login(app, username, 'long-password');
    const me = await app.inject({
      method: 'GET',
      url: '/api/user/current',
      cookies: { kol_session: cookie },
    });
    expect(body(me).data).toMatchObject({
      nickname: '作者甲',
      functionalLevel: 1,
      templateIds: [0, 1, 2],
    });

    const listed = await kol('user', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`${username}\\s+作者甲`));

    const set = await kol(
      'user',
      'set',
      username,
      '--home-page-url',
      'https://example.com/me',
      '--status',
      '0',
    );
    expect(set.code).toBe(0);
    expect(set.out).toContain('home page https://example.com/me');

    const disabled = await kol('user', 'disable', username);
    expect(disabled).toMatchObject({ code: 0 });
    expect(
      body(
        await app.inject({
          method: 'GET',
          url: '/api/user/current',
          cookies: { kol_session: cookie },
        }),
      ).code,
    ).toBe(401);

    const reenabled = await kol('user', 'set', username, '--enable');
    expect(reenabled.code).toBe(0);
    expect(reenabled.out).not.toContain('DISABLED');

    const audit = await kol('audit', 'list', '--json');
    expect(audit.code).toBe(0);
    const entries = JSON.parse(audit.out).items as Array<{
      actor: string;
      action: string;
      target: string;
      details: Record<string, unknown>;
    }>;
    const mine = entries.filter((e) => e.target === `user:${username}`).map((e) => e.action);
    expect(mine).toEqual(['user.update', 'user.disable', 'user.update', 'user.create']);
    const disable = entries.find(
      (e) => e.action === 'user.disable' && e.target === `user:${username}`,
    );
    expect(disable?.actor).toBe('admin token (tester)');
    expect(disable?.details).toMatchObject({
      before: { disabled: false },
      after: { disabled: true },
    });
    // Hashes never reach the audit log.
    expect(audit.out).not.toContain('scrypt$');
  });

  it('grants quota and the user sees it', async () => {
    const username = uniqueName('cli');
    expect(
      (await kol('user', 'create', '--username', username, '--password', 'long-password')).code,
    ).toBe(0);
    const granted = await kol(
      'quota',
      'grant',
      username,
      '--type',
      'comics',
      '--gen',
      '5',
      '--reward',
      '2',
      '--merge',
      '1',
    );
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.out).toContain('gen 5, reward 2, merge 1');
    const takenBack = await kol('quota', 'grant', username, '--type', 'comics', '--gen=-9');
    expect(takenBack.out).toContain('gen 0, reward 2, merge 1');

    const cookie = await login(app, username, 'long-password');
    const limits = await app.inject({
      method: 'GET',
      url: '/api/user/get_user_limit_info',
      cookies: { kol_session: cookie },
    });
    expect(body(limits).data).toMatchObject({
      remainGenCount: 0,
      remainRewardsGenerateCount: 2,
      remainMergeCount: 1,
    });

    const noMerge = await kol('quota', 'grant', username, '--type', 'scroll', '--merge', '1');
    expect(noMerge.code).toBe(1);
    expect(noMerge.err).toContain('没有合成次数');
  });

  it('publishes a notice that users then see unread', async () => {
    const username = uniqueName('cli');
    await kol('user', 'create', '--username', username, '--password', 'long-password');
    const cookie = await login(app, username, 'long-password');
    const published = await kol(
      'notice',
      'publish',
      '--title',
      '维护通知',
      '--content',
      '<b>今晚</b> 维护',
      '--category',
      '运维',
    );
    expect(published.code).toBe(0);
    expect(published.out).toMatch(/Published notice \d+ "维护通知" in 运维/);
    const list = await app.inject({
      method: 'GET',
      url: '/api/notice/list?pageIndex=1&pageSize=1000&id=-1',
      cookies: { kol_session: cookie },
    });
    expect((body(list).data as { items: unknown[] }).items).toContainEqual(
      expect.objectContaining({ title: '维护通知', content: '<b>今晚</b> 维护', status: 0 }),
    );
  });

  it('fails clearly: bad input, unknown user, duplicate, wrong token, server down, usage', async () => {
    const short = await kol(
      'user',
      'create',
      '--username',
      uniqueName('cli'),
      '--password',
      'short',
    );
    expect(short).toMatchObject({ code: 1, err: 'Failed (400): 「密码」至少需要 8 个字符' });

    const missing = await kol('user', 'disable', 'nobody-here');
    expect(missing).toMatchObject({ code: 1, err: 'Failed (404): 用户 nobody-here 不存在' });

    const username = uniqueName('cli');
    await kol('user', 'create', '--username', username, '--password', 'long-password');
    expect(
      (await kol('user', 'create', '--username', username, '--password', 'long-password')).err,
    ).toContain('409');

    const out: string[] = [];
    const wrongToken = await runCli(['user', 'list', '--server', server], {
      env: { defaultServer: server, dataDir: '/nonexistent', adminToken: 'wrong', osUser: 'x' },
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    });
    expect(wrongToken).toBe(1);
    expect(out.join()).toContain('管理令牌无效');

    const down = await runCli(['user', 'list'], {
      env: {
        defaultServer: 'http://127.0.0.1:9',
        dataDir: '/nonexistent',
        adminToken: 't',
        osUser: 'x',
      },
      out: () => undefined,
      err: (line) => out.push(line),
    });
    expect(down).toBe(1);
    expect(out.at(-1)).toMatch(/Cannot reach the server at http:\/\/127\.0\.0\.1:9/);

    expect((await kol('user', 'frobnicate')).code).toBe(2);
    expect((await kol('quota', 'grant', username, '--type', 'nonsense')).code).toBe(2);
    expect((await kol('user', 'create', '--bogus')).code).toBe(2);
  });

  it('refuses the admin API without the token', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/users', headers: PC });
    expect(response.statusCode).toBe(401);
    expect(body(response).msg).toBe('管理令牌无效');
  });
});
