import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

/**
 * Applies server/migrations/*.sql in name order, each once, recorded in kol_migrations.
 * Everything runs in one transaction holding an advisory lock, so two processes starting at
 * once apply each file exactly once: the second waits, then finds nothing left to do.
 */
export async function migrate(pool: pg.Pool, migrationsDir: string): Promise<string[]> {
  const files = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort();
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Keyed by schema so that separate schemas (one per test file) do not wait for each other.
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtext('kol_migrations:' || current_schema()))`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS kol_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM kol_migrations')).rows.map(
        (row) => row.name,
      ),
    );
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      await client.query(await readFile(path.join(migrationsDir, name), 'utf8'));
      await client.query('INSERT INTO kol_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
