import { Kysely, PostgresDialect } from 'kysely';
import type { AppConfig } from '../config';
import type { EmbeddedDatabase } from './embedded';
import { PGliteDialect } from './pglite-dialect';
import { openPool } from './pool';
import type { Database } from './schema';

/** Connections a process keeps to PostgreSQL (requests, pg-boss and the video runner share them). */
const POSTGRES_POOL_SIZE = 10;

export interface DatabaseConnection {
  /** The query layer. Only repositories (src/repositories, plugins/app/repositories.ts) use it. */
  db: Kysely<Database>;
  /** Ends the pool, and closes the embedded database when this call opened it. */
  close(): Promise<void>;
}

/**
 * The one way a process reaches its database: the `pg` driver to PostgreSQL (DATABASE_URL),
 * or the embedded PGlite in this process through a dialect that gives each statement and each
 * transaction the one session in turn (src/db/pglite-dialect.ts). The same SQL either way.
 */
export async function openDatabase(
  config: Pick<AppConfig, 'database' | 'databaseSchema'>,
  onIdleError: (error: Error) => void,
): Promise<DatabaseConnection> {
  const { database, databaseSchema } = config;
  if (databaseSchema && !/^[a-z_][a-z0-9_]*$/.test(databaseSchema)) {
    throw new Error(`bad schema name ${databaseSchema}`);
  }
  if ('url' in database) {
    const pool = await openPool({
      connectionString: database.url,
      max: POSTGRES_POOL_SIZE,
      schema: databaseSchema,
      onIdleError,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // pool.end() rather than db.destroy(): the pool is ours whether kysely used it or not.
    return { db, close: () => pool.end() };
  }
  let embedded: EmbeddedDatabase;
  let owned = false;
  if ('embedded' in database) {
    embedded = database.embedded;
  } else {
    // Loaded only when used: with DATABASE_URL, PGlite's WebAssembly never comes into memory.
    const { openEmbeddedDatabase } = await import('./embedded');
    embedded = await openEmbeddedDatabase(database.embeddedDataDir);
    owned = true;
  }
  const schema = databaseSchema ?? null;
  if (schema) {
    await embedded.exclusive((session) =>
      session.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`, []),
    );
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(embedded, schema) });
  return {
    db,
    close: async () => {
      if (owned) await embedded.close();
    },
  };
}
