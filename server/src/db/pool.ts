import pg from 'pg';

/**
 * The connection pool of a process (the server or a worker). With a schema (tests, shared
 * databases) every connection is set to it before it is handed out, and the schema is created.
 */
export async function openPool(options: {
  connectionString: string;
  max: number;
  schema?: string | undefined;
  onIdleError: (error: Error) => void;
}): Promise<pg.Pool> {
  const { schema } = options;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    // Runs before the pool hands the new connection out, so no query can overtake it.
    ...(schema
      ? {
          onConnect: async (client: pg.ClientBase) => {
            await client.query(`SET search_path TO ${schema}`);
          },
        }
      : {}),
  });
  // An idle connection that breaks (database restart) must not crash the process.
  pool.on('error', options.onIdleError);
  // Nor one that breaks while handed out between two queries (a readiness probe during an
  // outage saw it): the query in flight fails on its own; the event would otherwise throw.
  pool.on('connect', (client) => client.on('error', options.onIdleError));
  if (schema) {
    // IF NOT EXISTS still races when two processes create the schema at the same moment.
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch((error: { code?: string }) => {
      if (error.code !== '23505' && error.code !== '42P06') throw error;
    });
  }
  return pool;
}
