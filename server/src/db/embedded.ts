import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * How many `pg` connections the embedded database accepts. pglite-socket 0.2.17 defaults to ONE
 * and answers any connection past its `maxConnections` with "Too many connections" and a close,
 * which `pg` reports as a protocol error. PGlite is a single PostgreSQL session: the socket
 * server queues every query from every connection and runs them one at a time, letting the
 * connection that holds an open transaction go first. More connections therefore add no
 * parallelism, they only let requests queue at the database instead of in the pool.
 * The pool gets EMBEDDED_POOL_SIZE; the server allows two more (a psql for debugging, a restart
 * overlap).
 *
 * Consequences of the shared session, all harmless here: session settings (`SET`) and
 * advisory locks are shared by every connection; only this process can open the data dir.
 */
export const EMBEDDED_POOL_SIZE = 8;

export interface EmbeddedDatabase {
  /** `postgres://` URL of the socket server on loopback. */
  url: string;
  /** How many connections the app's pool may open. */
  poolSize: number;
  stop(): Promise<void>;
}

/**
 * Opens (or creates) PGlite in `dataDir` (in memory when null) and serves it on 127.0.0.1.
 * `maxConnections` is raised only by the tests, where several apps share one PGlite.
 */
export async function startEmbeddedDatabase(
  dataDir: string | null,
  maxConnections = EMBEDDED_POOL_SIZE + 2,
): Promise<EmbeddedDatabase> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ?? undefined);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    maxConnections,
  });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    poolSize: EMBEDDED_POOL_SIZE,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
