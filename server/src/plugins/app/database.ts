import fp from 'fastify-plugin';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../../db/schema';
import type { EmbeddedDatabase } from '../../db/embedded';
import { migrate } from '../../db/migrate';
import { MIGRATIONS_DIR } from '../../paths';

declare module 'fastify' {
  interface FastifyInstance {
    /** The query layer. Only repositories (src/repositories, plugins/app/repositories.ts) use it. */
    db: Kysely<Database>;
    pingDatabase(): Promise<void>;
  }
}

const POSTGRES_POOL_SIZE = 10;

/**
 * Connects `pg` to PostgreSQL (DATABASE_URL) or to the embedded PGlite through pglite-socket
 * on loopback: the same driver and SQL either way. Applies migrations before anything else
 * uses the database.
 */
export default fp(
  async (app) => {
    const { database, databaseSchema } = app.config;
    let embedded: EmbeddedDatabase | undefined;
    let connectionString: string;
    if ('url' in database) {
      connectionString = database.url;
    } else {
      // Loaded only when used: with DATABASE_URL, PGlite's WebAssembly never comes into memory.
      const { startEmbeddedDatabase } = await import('../../db/embedded');
      embedded = await startEmbeddedDatabase(database.embeddedDataDir);
      connectionString = embedded.url;
    }

    if (databaseSchema && !/^[a-z_][a-z0-9_]*$/.test(databaseSchema)) {
      throw new Error(`bad schema name ${databaseSchema}`);
    }
    const pool = new pg.Pool({
      connectionString,
      max: embedded ? embedded.poolSize : POSTGRES_POOL_SIZE,
      // Runs before the pool hands the new connection out, so no query can overtake it.
      ...(databaseSchema
        ? {
            onConnect: async (client: pg.ClientBase) => {
              await client.query(`SET search_path TO ${databaseSchema}`);
            },
          }
        : {}),
    });
    // An idle connection that breaks (database restart) must not crash the process.
    pool.on('error', (error) => app.log.error({ err: error }, 'idle database connection failed'));
    if (databaseSchema) {
      // IF NOT EXISTS still races when two processes create the schema at the same moment.
      await pool
        .query(`CREATE SCHEMA IF NOT EXISTS ${databaseSchema}`)
        .catch((error: { code?: string }) => {
          if (error.code !== '23505' && error.code !== '42P06') throw error;
        });
    }

    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    app.addHook('onClose', async () => {
      // pool.end() rather than db.destroy(): kysely ends the pool only if it ran a query
      // itself, and migrations use the pool directly.
      await pool.end();
      await embedded?.stop();
    });

    const applied = await migrate(pool, MIGRATIONS_DIR());
    if (applied.length > 0) app.log.info({ applied }, 'database migrations applied');

    app.decorate('db', db);
    app.decorate('pingDatabase', async () => {
      await sql`SELECT 1`.execute(db);
    });
  },
  { name: 'database' },
);
