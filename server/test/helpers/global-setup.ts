import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL when TEST_DATABASE_URL names one and KOL_TEST_DB=pglite does not insist on PGlite
 * (`pnpm test` runs both, one after the other). On PGlite, every test file opens an embedded
 * database of its own (test-app.ts); this makes the fresh data directory they all start from
 * once, so no file pays for initdb.
 */
export default async function globalSetup() {
  // The built-in music and background loops, generated once for the whole run (test-app.ts
  // links every file's media/library here): each takes about a second of ffmpeg.
  process.env.KOL_TEST_LIBRARY_DIR = mkdtempSync(path.join(os.tmpdir(), 'kol-test-library-'));
  if (process.env.TEST_DATABASE_URL && process.env.KOL_TEST_DB !== 'pglite') {
    process.env.KOL_TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  delete process.env.KOL_TEST_DATABASE_URL;
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(os.tmpdir(), `kol-test-pglite-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  // Workers are started after this and inherit the environment.
  process.env.KOL_TEST_PGLITE_DUMP = file;
}
