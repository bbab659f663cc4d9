import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';

/**
 * Applies server/migrations/*.sql in name order, each once, recorded in kol_migrations.
 * Everything runs in one transaction holding an advisory lock, so two processes starting at
 * once apply each file exactly once: the second waits, then finds nothing left to do.
 */
export async function migrate<T>(db: Kysely<T>, migrationsDir: string): Promise<string[]> {
  const files = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort();
  return db.transaction().execute(async (trx) => {
    // Keyed by schema so that separate schemas (one per test file) do not wait for each other.
    await sql`SELECT pg_advisory_xact_lock(hashtext('kol_migrations:' || current_schema()))`.execute(
      trx,
    );
    await sql`CREATE TABLE IF NOT EXISTS kol_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`.execute(trx);
    const done = new Set(
      (await sql<{ name: string }>`SELECT name FROM kol_migrations`.execute(trx)).rows.map(
        (row) => row.name,
      ),
    );
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      // A script of several statements: sent without parameters (the simple protocol).
      await sql.raw(await readFile(path.join(migrationsDir, name), 'utf8')).execute(trx);
      await sql`INSERT INTO kol_migrations (name) VALUES (${name})`.execute(trx);
      applied.push(name);
    }
    return applied;
  });
}
