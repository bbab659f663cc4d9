import { startEmbeddedDatabase } from '../../src/db/embedded';

/**
 * Starts an in-memory PGlite behind pglite-socket, unless TEST_DATABASE_URL names a PostgreSQL
 * and KOL_TEST_DB=pglite does not insist on PGlite (`pnpm test` runs both, one after the other).
 */
export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL && process.env.KOL_TEST_DB !== 'pglite') {
    process.env.KOL_TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  const database = await startEmbeddedDatabase(null, 200);
  // Workers are started after this and inherit the environment.
  process.env.KOL_TEST_DATABASE_URL = database.url;
  (globalThis as { kolTestDatabase?: typeof database }).kolTestDatabase = database;
}
