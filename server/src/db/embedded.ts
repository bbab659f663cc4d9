import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database: PGlite (PostgreSQL in WebAssembly) inside this process, with no port
 * open to anyone.
 *
 * PGlite is ONE PostgreSQL session. Everything this process sends it (a query of a request, a
 * transaction of another, pg-boss's job fetch) must reach it whole and in turn: a statement
 * sent while another caller's transaction is open would run inside that transaction, and the
 * wire messages of two callers interleaved answer one caller with the other's result (the data
 * loss of issue 11, when several `pg` connections shared the session through pglite-socket).
 * So every use goes through `exclusive`: one caller at a time, in arrival order, a transaction
 * holding its turn from BEGIN to COMMIT.
 */
export interface EmbeddedDatabase {
  /**
   * Runs `work` with the session to itself; other callers wait their turn. `work` must not
   * wait for another `exclusive` call (it would wait for itself).
   */
  exclusive<T>(work: (session: EmbeddedSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface EmbeddedSession {
  /** One statement with `$n` parameters, or (no parameters) a script of several statements. */
  query(
    sql: string,
    parameters: readonly unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; affectedRows: number }>;
  /** Sets the session's search_path when it differs (tests give each app a schema). */
  useSchema(schema: string | null): Promise<void>;
}

/** PostgreSQL's type oid of int8 (bigint). */
const INT8_OID = 20;

/** A FIFO lock: `acquire` resolves with the release function when the caller's turn comes. */
class Turns {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => mine);
    return ready;
  }
}

/**
 * Opens (or creates) PGlite in `dataDir` (in memory when null). `loadDataDir`, a dump of a
 * fresh database (`dumpDataDir`), skips initdb: the tests open one per file in a fraction of
 * the time.
 */
export async function openEmbeddedDatabase(
  dataDir: string | null,
  options: { loadDataDir?: Blob } = {},
): Promise<EmbeddedDatabase> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    // bigint as text, as the `pg` driver answers it: the code runs the same on both databases.
    parsers: { [INT8_OID]: (value: string) => value },
  });
  const turns = new Turns();
  let searchPath: string | null = null;
  let closed = false;

  const session: EmbeddedSession = {
    async query(sql, parameters) {
      if (parameters.length > 0) {
        const result = await pglite.query<Record<string, unknown>>(sql, [...parameters]);
        return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
      }
      // The simple protocol takes scripts (migrations, pg-boss's), as `pg` does without values.
      const results = await pglite.exec(sql);
      const last = results[results.length - 1];
      return {
        rows: (last?.rows ?? []) as Record<string, unknown>[],
        affectedRows: last?.affectedRows ?? 0,
      };
    },
    async useSchema(schema) {
      if (schema === searchPath) return;
      if (schema !== null && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
        throw new Error(`bad schema name ${schema}`);
      }
      await pglite.exec(schema === null ? 'RESET search_path' : `SET search_path TO ${schema}`);
      searchPath = schema;
    },
  };

  return {
    async exclusive(work) {
      if (closed) throw new Error('the embedded database is closed');
      const release = await turns.acquire();
      try {
        return await work(session);
      } finally {
        release();
      }
    },
    async close() {
      if (closed) return;
      // Waits for the turns already queued, so nothing in flight is cut off.
      const release = await turns.acquire();
      closed = true;
      try {
        await pglite.close();
      } finally {
        release();
      }
    },
  };
}
