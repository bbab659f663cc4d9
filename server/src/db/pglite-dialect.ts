import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { EmbeddedDatabase, EmbeddedSession } from './embedded';

/**
 * kysely on the in-process PGlite. A "connection" is a turn at the one session: acquiring it
 * waits for every caller before, so a transaction (BEGIN … COMMIT on one connection) runs
 * whole, and nothing else reaches the session until it is released.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly database: EmbeddedDatabase,
    /** The schema every statement runs in (tests); null: the default search_path. */
    private readonly schema: string | null = null,
  ) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.database, this.schema);
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    private readonly session: EmbeddedSession,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const result = await this.session.query(compiledQuery.sql, compiledQuery.parameters);
      return {
        rows: result.rows as R[],
        numAffectedRows: BigInt(result.affectedRows),
      };
    } catch (error) {
      // A script that opened a transaction and failed inside it (pg-boss's BEGIN; …; COMMIT)
      // leaves the one session in an aborted transaction: end it before the next caller's
      // turn, or every later statement of every request would fail. Inside a kysely
      // transaction kysely rolls back itself.
      if (!this.inTransaction) await this.session.query('ROLLBACK', []).catch(() => undefined);
      throw error;
    }
  }

  // eslint-disable-next-line require-yield -- kysely's interface; nothing here streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  constructor(
    private readonly database: EmbeddedDatabase,
    private readonly schema: string | null,
  ) {}

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return new Promise((resolve, reject) => {
      // The turn lasts until releaseConnection: `exclusive` resolves only then.
      this.database
        .exclusive(
          (session) =>
            new Promise<void>((release) => {
              session.useSchema(this.schema).then(
                () => resolve(new PGliteConnection(session, release)),
                (error: unknown) => {
                  release();
                  reject(error);
                },
              );
            }),
        )
        .catch(reject);
    });
  }

  async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    const options = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
      settings.accessMode ?? '',
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(['start transaction', ...options].join(' ')));
    (connection as PGliteConnection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection, 'rollback');
  }

  private async end(connection: DatabaseConnection, command: 'commit' | 'rollback') {
    try {
      await connection.executeQuery(CompiledQuery.raw(command));
    } finally {
      (connection as PGliteConnection).inTransaction = false;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async destroy(): Promise<void> {}
}
