import { sql, type Kysely } from 'kysely';
import type { RemoteLoadFailure, RouteClaim } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

export interface ReleaseRecord {
  remote: string;
  version: string;
  createdAt: string;
  createdBy: string;
  note: string;
  routes: RouteClaim[];
}

/** What the registry needs of one remote: its active release and its fallback. */
export interface ActiveRemote {
  remote: string;
  version: string;
  routes: RouteClaim[];
  lastKnownGoodVersion: string | null;
}

export interface PointerChange {
  remote: string;
  from: string | null;
  to: string;
  lastKnownGood: string | null;
}

export interface StoredLoadFailure extends RemoteLoadFailure {
  id: number;
  userAgent: string;
  userId: number | null;
  createdAt: string;
}

export function createReleasesRepository(db: Kysely<Database>) {
  return {
    async find(remote: string, version: string): Promise<ReleaseRecord | null> {
      const row = await db
        .selectFrom('remote_releases')
        .selectAll()
        .where('remote', '=', remote)
        .where('version', '=', version)
        .executeTakeFirst();
      return row
        ? {
            remote: row.remote,
            version: row.version,
            createdAt: row.created_at.toISOString(),
            createdBy: row.created_by,
            note: row.note,
            routes: row.routes as RouteClaim[],
          }
        : null;
    },

    /**
     * Records a release whose folder is in place and makes it active, the active one becoming
     * the last known good. One transaction, the pointer row locked, so two processes
     * publishing at once leave a consistent pointer. Answers null when the version was
     * recorded already (nothing changes then).
     */
    async recordAndActivate(input: {
      remote: string;
      version: string;
      createdBy: string;
      note: string;
      routes: RouteClaim[];
    }): Promise<PointerChange | null> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('remote_releases')
          .values({
            remote: input.remote,
            version: input.version,
            created_by: input.createdBy,
            note: input.note,
            routes: JSON.stringify(input.routes),
          })
          .onConflict((oc) => oc.columns(['remote', 'version']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) return null;
        const pointer = await trx
          .selectFrom('remote_pointers')
          .select(['active_version', 'last_known_good_version'])
          .where('remote', '=', input.remote)
          .forUpdate()
          .executeTakeFirst();
        // Kept simple for now: the previous active version is taken as good. Issue 5 refines
        // this with the failures browsers report (a failing version is never last known good).
        const lastKnownGood = pointer?.active_version ?? null;
        await trx
          .insertInto('remote_pointers')
          .values({
            remote: input.remote,
            active_version: input.version,
            last_known_good_version: lastKnownGood,
          })
          .onConflict((oc) =>
            oc.column('remote').doUpdateSet({
              active_version: input.version,
              last_known_good_version: lastKnownGood,
              updated_at: sql<Date>`now()`,
            }),
          )
          .execute();
        return {
          remote: input.remote,
          from: pointer?.active_version ?? null,
          to: input.version,
          lastKnownGood,
        };
      });
    },

    /** Every remote that has an active release, by name. */
    async active(): Promise<ActiveRemote[]> {
      const rows = await db
        .selectFrom('remote_pointers')
        .innerJoin('remote_releases', (join) =>
          join
            .onRef('remote_releases.remote', '=', 'remote_pointers.remote')
            .onRef('remote_releases.version', '=', 'remote_pointers.active_version'),
        )
        .select([
          'remote_pointers.remote',
          'remote_pointers.active_version',
          'remote_pointers.last_known_good_version',
          'remote_releases.routes',
        ])
        .orderBy('remote_pointers.remote')
        .execute();
      return rows.map((row) => ({
        remote: row.remote,
        version: row.active_version,
        routes: row.routes as RouteClaim[],
        lastKnownGoodVersion: row.last_known_good_version,
      }));
    },

    async recordFailure(
      failure: RemoteLoadFailure & { userAgent: string; userId: number | null },
    ): Promise<void> {
      await db
        .insertInto('remote_load_failures')
        .values({
          remote: failure.remote,
          version: failure.version,
          phase: failure.phase,
          message: failure.message,
          user_agent: failure.userAgent,
          user_id: failure.userId,
        })
        .execute();
    },

    /** Newest first; of one remote when named. */
    async listFailures(remote: string | null, limit: number): Promise<StoredLoadFailure[]> {
      let query = db.selectFrom('remote_load_failures').selectAll();
      if (remote !== null) query = query.where('remote', '=', remote);
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        remote: row.remote,
        version: row.version,
        phase: row.phase,
        message: row.message,
        userAgent: row.user_agent,
        userId: row.user_id,
        createdAt: row.created_at.toISOString(),
      }));
    },
  };
}

export type ReleasesRepository = ReturnType<typeof createReleasesRepository>;
