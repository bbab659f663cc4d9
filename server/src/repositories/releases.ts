import { sql, type Kysely, type Transaction } from 'kysely';
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

export type ActivationAction = 'release' | 'rollback' | 'promote';

export interface PointerChange {
  remote: string;
  action: ActivationAction;
  from: string | null;
  to: string;
  note: string;
}

/** One stored version of a remote as ops list it. */
export interface RemoteVersionRow {
  version: string;
  createdAt: string;
  createdBy: string;
  note: string;
  active: boolean;
  lastKnownGood: boolean;
  failures: number;
  activatedAt: string | null;
  activatedBy: string | null;
}

export interface RemoteVersionsRow {
  remote: string;
  active: string | null;
  lastKnownGood: string | null;
  versions: RemoteVersionRow[];
}

/** Why a pointer could not move; `reason` picks the HTTP status, `message` is for ops. */
export class PointerMoveRefused extends Error {
  constructor(
    readonly reason: 'unknown-remote' | 'unknown-version' | 'no-previous' | 'already-active',
    message: string,
  ) {
    super(message);
    this.name = 'PointerMoveRefused';
  }
}

export interface StoredLoadFailure extends RemoteLoadFailure {
  id: number;
  userAgent: string;
  userId: number | null;
  createdAt: string;
}

/**
 * Serialises every pointer move of one remote (release, rollback, promote, across processes)
 * for the rest of the transaction, so the newest activation row and the pointer always agree
 * and `previous_id` links are never crossed. An advisory lock because a remote's first release
 * has no pointer row to lock yet.
 */
async function lockRemote(trx: Transaction<Database>, remote: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`kol_remote:${remote}:`} || current_schema()))`.execute(
    trx,
  );
}

async function currentActivation(trx: Transaction<Database>, remote: string) {
  return trx
    .selectFrom('remote_activations')
    .select(['id', 'version', 'previous_id'])
    .where('remote', '=', remote)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Moves the pointer and records the activation, inside the caller's transaction holding the
 * remote's lock.
 */
async function movePointer(
  trx: Transaction<Database>,
  input: {
    remote: string;
    version: string;
    from: string | null;
    previousId: number | null;
    action: ActivationAction;
    actor: string;
    note: string;
  },
): Promise<void> {
  await trx
    .insertInto('remote_pointers')
    .values({ remote: input.remote, active_version: input.version })
    .onConflict((oc) =>
      oc.column('remote').doUpdateSet({
        active_version: input.version,
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
  await trx
    .insertInto('remote_activations')
    .values({
      remote: input.remote,
      version: input.version,
      from_version: input.from,
      previous_id: input.previousId,
      action: input.action,
      actor: input.actor,
      note: input.note,
    })
    .execute();
}

export function createReleasesRepository(db: Kysely<Database>) {
  /**
   * The last known good version of each remote (of one when named): the most recently
   * activated version other than the active one for which no browser has reported a load
   * failure. Worked out on every read, so a failure report takes a version out at once.
   */
  async function lastKnownGood(remote: string | null): Promise<Map<string, string>> {
    let query = db
      .selectFrom('remote_activations as a')
      .innerJoin('remote_pointers as p', 'p.remote', 'a.remote')
      .distinctOn('a.remote')
      .select(['a.remote', 'a.version'])
      .whereRef('a.version', '<>', 'p.active_version')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('remote_load_failures as f')
              .select(sql`1`.as('one'))
              .whereRef('f.remote', '=', 'a.remote')
              .whereRef('f.version', '=', 'a.version'),
          ),
        ),
      );
    if (remote !== null) query = query.where('a.remote', '=', remote);
    const rows = await query.orderBy('a.remote').orderBy('a.id', 'desc').execute();
    return new Map(rows.map((row) => [row.remote, row.version]));
  }

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
     * Records a release whose folder is in place and makes it active, with its activation.
     * One transaction under the remote's lock, so two processes publishing at once leave a
     * consistent pointer and history. Answers null when the version was recorded already
     * (nothing changes then).
     */
    async recordAndActivate(input: {
      remote: string;
      version: string;
      createdBy: string;
      note: string;
      routes: RouteClaim[];
    }): Promise<PointerChange | null> {
      return db.transaction().execute(async (trx) => {
        await lockRemote(trx, input.remote);
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
        const current = await currentActivation(trx, input.remote);
        await movePointer(trx, {
          remote: input.remote,
          version: input.version,
          from: current?.version ?? null,
          previousId: current?.id ?? null,
          action: 'release',
          actor: input.createdBy,
          note: input.note,
        });
        return {
          remote: input.remote,
          action: 'release',
          from: current?.version ?? null,
          to: input.version,
          note: input.note,
        };
      });
    },

    /**
     * Points a remote at a stored version: the named one (`to`), or for a rollback without
     * one, the version that was active before the current activation (following the undo
     * history, see migrations/003_release_ops.sql). Nothing is built or copied.
     */
    async activate(input: {
      remote: string;
      to: string | null;
      action: 'rollback' | 'promote';
      actor: string;
      note: string;
    }): Promise<PointerChange> {
      return db.transaction().execute(async (trx) => {
        await lockRemote(trx, input.remote);
        const current = await currentActivation(trx, input.remote);
        if (!current) {
          throw new PointerMoveRefused(
            'unknown-remote',
            `远程模块 ${input.remote} 还没有发布过任何版本`,
          );
        }
        let target: string;
        let previousId: number | null;
        if (input.to === null) {
          const previous =
            current.previous_id === null
              ? undefined
              : await trx
                  .selectFrom('remote_activations')
                  .select(['version', 'previous_id'])
                  .where('id', '=', current.previous_id)
                  .executeTakeFirst();
          if (!previous) {
            throw new PointerMoveRefused(
              'no-previous',
              `${input.remote} 的 ${current.version} 之前没有更早启用过的版本可回滚；` +
                '可用 remote rollback --to <版本> 或 remote promote 指定版本',
            );
          }
          target = previous.version;
          // Undo: the next plain rollback continues from where that earlier activation came.
          previousId = previous.previous_id;
        } else {
          const stored = await trx
            .selectFrom('remote_releases')
            .select('version')
            .where('remote', '=', input.remote)
            .where('version', '=', input.to)
            .executeTakeFirst();
          if (!stored) {
            throw new PointerMoveRefused(
              'unknown-version',
              `${input.remote} 没有已发布的版本 ${input.to}（remote list ${input.remote} 列出已有版本）`,
            );
          }
          target = stored.version;
          previousId = current.id;
        }
        if (target === current.version) {
          throw new PointerMoveRefused(
            'already-active',
            `${input.remote} 当前启用的已经是版本 ${target}`,
          );
        }
        await movePointer(trx, {
          remote: input.remote,
          version: target,
          from: current.version,
          previousId,
          action: input.action,
          actor: input.actor,
          note: input.note,
        });
        return {
          remote: input.remote,
          action: input.action,
          from: current.version,
          to: target,
          note: input.note,
        };
      });
    },

    /** Every remote that has an active release, by name, with its last known good version. */
    async active(): Promise<ActiveRemote[]> {
      const [rows, good] = await Promise.all([
        db
          .selectFrom('remote_pointers')
          .innerJoin('remote_releases', (join) =>
            join
              .onRef('remote_releases.remote', '=', 'remote_pointers.remote')
              .onRef('remote_releases.version', '=', 'remote_pointers.active_version'),
          )
          .select([
            'remote_pointers.remote',
            'remote_pointers.active_version',
            'remote_releases.routes',
          ])
          .orderBy('remote_pointers.remote')
          .execute(),
        lastKnownGood(null),
      ]);
      return rows.map((row) => ({
        remote: row.remote,
        version: row.active_version,
        routes: row.routes as RouteClaim[],
        lastKnownGoodVersion: good.get(row.remote) ?? null,
      }));
    },

    lastKnownGood,

    /** Remotes (one when named) with every stored version, newest release first. */
    async versions(remote: string | null): Promise<RemoteVersionsRow[]> {
      let query = db
        .selectFrom('remote_releases as r')
        .leftJoin('remote_pointers as p', 'p.remote', 'r.remote')
        .select(({ selectFrom }) => [
          'r.remote',
          'r.version',
          'r.created_at',
          'r.created_by',
          'r.note',
          'p.active_version',
          selectFrom('remote_load_failures as f')
            .select(({ fn }) => fn.countAll<string>().as('n'))
            .whereRef('f.remote', '=', 'r.remote')
            .whereRef('f.version', '=', 'r.version')
            .as('failures'),
          selectFrom('remote_activations as a')
            .select('a.activated_at')
            .whereRef('a.remote', '=', 'r.remote')
            .whereRef('a.version', '=', 'r.version')
            .orderBy('a.id', 'desc')
            .limit(1)
            .as('activated_at'),
          selectFrom('remote_activations as a')
            .select('a.actor')
            .whereRef('a.remote', '=', 'r.remote')
            .whereRef('a.version', '=', 'r.version')
            .orderBy('a.id', 'desc')
            .limit(1)
            .as('activated_by'),
        ]);
      if (remote !== null) query = query.where('r.remote', '=', remote);
      const [rows, good] = await Promise.all([
        query.orderBy('r.remote').orderBy('r.id', 'desc').execute(),
        lastKnownGood(remote),
      ]);
      const byRemote = new Map<string, RemoteVersionsRow>();
      for (const row of rows) {
        let entry = byRemote.get(row.remote);
        if (!entry) {
          entry = {
            remote: row.remote,
            active: row.active_version,
            lastKnownGood: good.get(row.remote) ?? null,
            versions: [],
          };
          byRemote.set(row.remote, entry);
        }
        entry.versions.push({
          version: row.version,
          createdAt: row.created_at.toISOString(),
          createdBy: row.created_by,
          note: row.note,
          active: row.version === row.active_version,
          lastKnownGood: row.version === entry.lastKnownGood,
          // count() is a bigint, which pg hands over as a string.
          failures: Number(row.failures ?? 0),
          activatedAt: row.activated_at ? new Date(row.activated_at).toISOString() : null,
          activatedBy: row.activated_by ?? null,
        });
      }
      return [...byRemote.values()];
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
