import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { migrate } from '../../src/db/migrate';
import { MIGRATIONS_DIR } from '../../src/paths';
import { createReleasesRepository } from '../../src/repositories/releases';
import { openTestDatabase } from '../helpers/test-app';

/**
 * Migration 003 on a database that already has releases: the history it fills in lets the
 * first rollback after the upgrade find the version that was active before.
 */

const schema = `r_${randomBytes(6).toString('hex')}`;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A migrations folder holding only the named files, to stop the database at that point. */
function migrationsUpTo(files: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kol-migrations-'));
  dirs.push(dir);
  for (const file of files) copyFileSync(path.join(MIGRATIONS_DIR(), file), path.join(dir, file));
  return dir;
}

describe('migration 003 on existing releases', () => {
  it('records the releases so far as activations and rolls back from there', async () => {
    const { db, close } = await openTestDatabase(schema);
    try {
      await migrate(db, migrationsUpTo(['001_init.sql', '002_releases_uploads.sql']));
      // As the pre-003 server left them: every release activated in turn, the pointer on the
      // last with the one before as its last known good.
      await sql`INSERT INTO remote_releases (remote, version, created_by, note, routes) VALUES
           ('mfe_a', '0.1.0-aaaaaaaa', 'auto-publish', '', '[]'),
           ('mfe_b', '0.1.0-bbbbbbbb', 'auto-publish', '', '[]'),
           ('mfe_a', '0.1.0-cccccccc', 'ops', 'fix', '[]')`.execute(db);
      await sql`INSERT INTO remote_pointers (remote, active_version, last_known_good_version) VALUES
           ('mfe_a', '0.1.0-cccccccc', '0.1.0-aaaaaaaa'),
           ('mfe_b', '0.1.0-bbbbbbbb', NULL)`.execute(db);
      expect(
        await migrate(
          db,
          migrationsUpTo(['001_init.sql', '002_releases_uploads.sql', '003_release_ops.sql']),
        ),
      ).toEqual(['003_release_ops.sql']);

      const history =
        await sql`SELECT remote, version, from_version, actor, note, action FROM remote_activations ORDER BY id`.execute(
          db,
        );
      expect(history.rows).toEqual([
        {
          remote: 'mfe_a',
          version: '0.1.0-aaaaaaaa',
          from_version: null,
          actor: 'auto-publish',
          note: '',
          action: 'release',
        },
        {
          remote: 'mfe_b',
          version: '0.1.0-bbbbbbbb',
          from_version: null,
          actor: 'auto-publish',
          note: '',
          action: 'release',
        },
        {
          remote: 'mfe_a',
          version: '0.1.0-cccccccc',
          from_version: '0.1.0-aaaaaaaa',
          actor: 'ops',
          note: 'fix',
          action: 'release',
        },
      ]);

      // Today's repository on today's schema: the later migrations (canaries, 015) run over
      // these rows too.
      await migrate(db, MIGRATIONS_DIR());
      const releases = createReleasesRepository(db);
      expect(Object.fromEntries(await releases.lastKnownGood(null))).toEqual({
        mfe_a: '0.1.0-aaaaaaaa',
      });
      const change = await releases.activate({
        remote: 'mfe_a',
        to: null,
        action: 'rollback',
        actor: 'tester',
        note: '',
      });
      expect(change).toMatchObject({ from: '0.1.0-cccccccc', to: '0.1.0-aaaaaaaa' });
      await expect(
        releases.activate({ remote: 'mfe_b', to: null, action: 'rollback', actor: 't', note: '' }),
      ).rejects.toThrow('没有更早启用过的版本可回滚');
    } finally {
      await close();
    }
  });
});
