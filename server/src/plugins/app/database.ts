import fp from 'fastify-plugin';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { EmbeddedDatabase } from '../../db/embedded';
import { migrate } from '../../db/migrate';
import { openPool } from '../../db/pool';
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

    const pool = await openPool({
      connectionString,
      max: embedded ? embedded.poolSize : POSTGRES_POOL_SIZE,
      schema: databaseSchema,
      onIdleError: (error) => app.log.error({ err: error }, 'idle database connection failed'),
    });

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
