import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildTypeboxBundle } from './typebox-bundle.cjs';
import { openDatabase } from '../../src/db/connect';
import { migrate } from '../../src/db/migrate';
import { MIGRATIONS_DIR } from '../../src/paths';

/**
 * PostgreSQL when TEST_DATABASE_URL names one and KOL_TEST_DB=pglite does not insist on PGlite
 * (`pnpm test` runs both, one after the other). On PGlite, every test file opens an embedded
 * database of its own (test-app.ts); this makes the data directory they all start from once,
 * migrated, so no file pays for initdb or for the migrations (about a second a file). The
 * migrations themselves are still tested from nothing, in schemas of their own
 * (test/db/startup.test.ts).
 */
export default async function globalSetup() {
  await buildTypeboxBundle();
  // The built-in music and background loops, generated once for the whole run (test-app.ts
  // links every file's media/library here): each takes about a second of ffmpeg.
  process.env.KOL_TEST_LIBRARY_DIR = mkdtempSync(path.join(os.tmpdir(), 'kol-test-library-'));
  if (process.env.TEST_DATABASE_URL && process.env.KOL_TEST_DB !== 'pglite') {
    process.env.KOL_TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  delete process.env.KOL_TEST_DATABASE_URL;
  // Migrated the way the app does it (openDatabase, migrate), in a folder, then dumped.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kol-test-pglite-'));
  const { db, close } = await openDatabase({ database: { embeddedDataDir: dataDir } }, () => {});
  try {
    await migrate(db, MIGRATIONS_DIR());
  } finally {
    await close();
  }
  const pglite = await PGlite.create({ dataDir });
  // The app works in the `postgres` database; the two templates (only CREATE DATABASE reads
  // them) are two thirds of the dump's files, unpacked again by every file's open.
  // One statement a call: DROP DATABASE refuses to run in a multi-statement string.
  for (const statement of [
    "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')",
    'DROP DATABASE template0',
    'DROP DATABASE template1',
    'CHECKPOINT',
  ]) {
    await pglite.exec(statement);
  }
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  rmSync(dataDir, { recursive: true, force: true });
  const file = path.join(os.tmpdir(), `kol-test-pglite-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  // Workers are started after this and inherit the environment.
  process.env.KOL_TEST_PGLITE_DUMP = file;
}
