import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../db/connect';
import { migrate } from '../../db/migrate';
import type { Database } from '../../db/schema';
import { MIGRATIONS_DIR } from '../../paths';

declare module 'fastify' {
  interface FastifyInstance {
    /** The query layer. Only repositories (src/repositories, plugins/app/repositories.ts) use it. */
    db: Kysely<Database>;
    pingDatabase(): Promise<void>;
  }
}

/**
 * Opens the database (PostgreSQL by DATABASE_URL, or the embedded PGlite in this process) and
 * applies migrations before anything else uses it.
 */
export default fp(
  async (app) => {
    const connection = await openDatabase(app.config, (error) =>
      app.log.error({ err: error }, 'idle database connection failed'),
    );
    const { db } = connection;
    app.addHook('onClose', () => connection.close());

    const applied = await migrate(db, MIGRATIONS_DIR());
    if (applied.length > 0) app.log.info({ applied }, 'database migrations applied');

    app.decorate('db', db);
    app.decorate('pingDatabase', async () => {
      await sql`SELECT 1`.execute(db);
    });
  },
  { name: 'database' },
);
