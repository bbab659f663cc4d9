import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { buildApp } from '../../src/app';
import { DEMO_ACCOUNT } from '../../src/config';
import { migrate } from '../../src/db/migrate';
import { MIGRATIONS_DIR } from '../../src/paths';
import { PC, body, login, openTestDatabase, testConfig } from '../helpers/test-app';

describe('start-up', () => {
  it('applies migrations once when two processes start at once', async () => {
    const schema = `m_${randomBytes(6).toString('hex')}`;
    // Two processes' connections (on PGlite: two callers of the one session, taking turns).
    const databases = await Promise.all([0, 1].map(() => openTestDatabase(schema)));
    try {
      const results = await Promise.all(databases.map(({ db }) => migrate(db, MIGRATIONS_DIR())));
      const files = readdirSync(MIGRATIONS_DIR())
        .filter((name) => name.endsWith('.sql'))
        .sort();
      expect(files[0]).toBe('001_init.sql');
      expect(results.flat().sort()).toEqual(files);
      const [first] = databases;
      if (!first) throw new Error('no database');
      expect(await migrate(first.db, MIGRATIONS_DIR())).toEqual([]);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  });

  it('seeds the demo data once, even when two servers start together', async () => {
    const config = testConfig({
      seedDemo: true,
      databaseSchema: `s_${randomBytes(6).toString('hex')}`,
    });
    const apps = await Promise.all([buildApp(config), buildApp(config)]);
    try {
      expect(apps.map((a) => a.seededDemoNow).sort()).toEqual([false, true]);
      const [app] = apps;
      if (!app) throw new Error('no app');
      const cookie = await login(app, DEMO_ACCOUNT.username, DEMO_ACCOUNT.password);
      const me = await app.inject({
        method: 'GET',
        url: '/api/user/current',
        cookies: { kol_session: cookie },
      });
      expect(body(me).data).toMatchObject({
        username: 'demo',
        status: -1,
        functionalLevel: 1,
        homePageUrl: '',
        templateIds: [0, 1, 2, 3, 4, 5, 6],
      });
      const limits = await app.inject({
        method: 'GET',
        url: '/api/user/get_user_limit_info',
        cookies: { kol_session: cookie },
      });
      const values = Object.values(body(limits).data as Record<string, number>);
      expect(values).toHaveLength(24);
      expect(values.every((v) => v === 100)).toBe(true);
      const categories = await app.inject({
        method: 'GET',
        url: '/api/notice/get_notice_category',
        cookies: { kol_session: cookie },
      });
      expect(
        (body(categories).data as Array<{ categoryName: string }>).map((c) => c.categoryName),
      ).toEqual(['系统公告', '功能更新']);
      const count = await app.inject({
        method: 'GET',
        url: '/api/notice/get_notice_count',
        headers: PC,
        cookies: { kol_session: cookie },
      });
      expect(body(count).data).toEqual({ count: 4 });

      // A restart finds it seeded and leaves it alone.
      const again = await buildApp(config);
      expect(again.seededDemoNow).toBe(false);
      await again.close();
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
