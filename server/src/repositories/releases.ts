import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  ReleaseFilesCheck,
  ReleaseFilesStatus,
  RemoteLoadFailure,
  RouteClaim,
} from '@kol/shared-sdk/contracts';
import type { CanaryEndReason, Database, RemoteAutoRollbacksTable } from '../db/schema';

export interface ReleaseRecord {
  remote: string;
  version: string;
  createdAt: string;
  createdBy: string;
  note: string;
  routes: RouteClaim[];
}

/** What the registry needs of one remote: its active release, its fallback, its canary. */
export interface ActiveRemote {
  remote: string;
  version: string;
  routes: RouteClaim[];
  lastKnownGoodVersion: string | null;
  canary: { version: string; percent: number; routes: RouteClaim[] } | null;
}

export type ActivationAction = 'release' | 'rollback' | 'promote';

/** A canary running beside the stable version (migrations/015_canary_auto_rollback.sql). */
export interface RunningCanary {
  version: string;
  percent: number;
  startedAt: string;
  startedBy: string;
  note: string;
}

export interface PointerChange {
  remote: string;
  /** `canary`: a canary was started; the pointer did not move. */
  action: ActivationAction | 'canary';
  from: string | null;
  to: string;
  note: string;
  /** The canary running after the change. */
  canary: RunningCanary | null;
  /** The canary version the change ended, if it ended one. */
  endedCanary: string | null;
}

/** The reports that made the server roll a version back on its own, and what it checked. */
export interface FailureEvidence {
  /** The distinct served users whose reports counted. */
  users: number[];
  errors: Array<{ phase: string; message: string; count: number }>;
  /**
   * Distinct users the version was served to within the window, the reporters among them;
   * null on rollbacks recorded before serves were kept.
   */
  servedUsers: number | null;
  /** The store check of the version's files before acting; null before it existed. */
  files: ReleaseFilesCheck | null;
}

export interface AutoRollbackRecord extends FailureEvidence {
  id: number;
  remote: string;
  version: string;
  to: string;
  canary: boolean;
  windowMs: number;
  /** The least share of the served users the reporters had to be, in %; null before it. */
  sharePercent: number | null;
  createdAt: string;
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
  canaryPercent: number | null;
  autoRolledBackAt: string | null;
  /** The files check of its latest automatic rollback (null: none, or before the check). */
  autoRollbackFiles: ReleaseFilesStatus | null;
}

export interface RemoteVersionsRow {
  remote: string;
  active: string | null;
  lastKnownGood: string | null;
  canary: RunningCanary | null;
  versions: RemoteVersionRow[];
}

/** Why a pointer could not move; `reason` picks the HTTP status, `message` is for ops. */
export class PointerMoveRefused extends Error {
  constructor(
    readonly reason:
      | 'unknown-remote'
      | 'unknown-version'
      | 'no-previous'
      | 'already-active'
      | 'no-stable'
      | 'canary-running',
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
  /** Counts towards an automatic rollback (see recordFailure). */
  counted: boolean;
  createdAt: string;
}

/** A remote version the registry answered a user, as its active version or its fallback. */
export interface ServedVersion {
  remote: string;
  version: string;
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

async function currentActivation(db: Kysely<Database> | Transaction<Database>, remote: string) {
  return db
    .selectFrom('remote_activations')
    .select(['id', 'version', 'previous_id', 'actor', 'activated_at'])
    .where('remote', '=', remote)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Records a release's row; false when that version was recorded already. */
async function insertRelease(
  trx: Transaction<Database>,
  input: { remote: string; version: string; createdBy: string; note: string; routes: RouteClaim[] },
): Promise<boolean> {
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
  return inserted !== undefined;
}

/** The activation a plain rollback returns to (see migrations/003_release_ops.sql). */
async function previousActivation(trx: Transaction<Database>, previousId: number | null) {
  if (previousId === null) return undefined;
  return trx
    .selectFrom('remote_activations')
    .select(['version', 'previous_id'])
    .where('id', '=', previousId)
    .executeTakeFirst();
}

async function runningCanary(db: Kysely<Database> | Transaction<Database>, remote: string) {
  return db
    .selectFrom('remote_canaries')
    .select(['id', 'version', 'percent', 'started_at', 'started_by', 'note'])
    .where('remote', '=', remote)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
}

const toRunningCanary = (row: {
  version: string;
  percent: number;
  started_at: Date;
  started_by: string;
  note: string;
}): RunningCanary => ({
  version: row.version,
  percent: row.percent,
  startedAt: row.started_at.toISOString(),
  startedBy: row.started_by,
  note: row.note,
});

async function endCanary(
  trx: Transaction<Database>,
  id: number,
  reason: CanaryEndReason,
  actor: string,
): Promise<void> {
  await trx
    .updateTable('remote_canaries')
    .set({ ended_at: sql<Date>`now()`, ended_by: actor, end_reason: reason })
    .where('id', '=', id)
    .execute();
}

function toAutoRollback(row: Selectable<RemoteAutoRollbacksTable>): AutoRollbackRecord {
  return {
    id: row.id,
    remote: row.remote,
    version: row.version,
    to: row.to_version,
    canary: row.canary,
    users: row.users,
    errors: row.errors,
    servedUsers: row.served_users,
    files:
      row.files_status === null
        ? null
        : { status: row.files_status, detail: row.files_detail ?? '' },
    windowMs: row.window_ms,
    sharePercent: row.share_percent,
    createdAt: row.created_at.toISOString(),
  };
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
        if (!(await insertRelease(trx, input))) return null;
        const current = await currentActivation(trx, input.remote);
        // A release for everyone replaces whatever canary ran over the old stable version.
        const canary = await runningCanary(trx, input.remote);
        if (canary) await endCanary(trx, canary.id, 'superseded', input.createdBy);
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
          canary: null,
          endedCanary: canary?.version ?? null,
        };
      });
    },

    /**
     * Records a release whose folder is in place as the remote's canary, for `percent` of the
     * signed-in users; the pointer stays on the stable version. Refused for a remote without a
     * stable version or with a canary running already (one at a time: a second would make the
     * share and the failure counts of each unclear). Null when the version was recorded already.
     */
    async recordCanary(input: {
      remote: string;
      version: string;
      createdBy: string;
      note: string;
      routes: RouteClaim[];
      percent: number;
    }): Promise<PointerChange | null> {
      return db.transaction().execute(async (trx) => {
        await lockRemote(trx, input.remote);
        const current = await currentActivation(trx, input.remote);
        if (!current) {
          throw new PointerMoveRefused(
            'no-stable',
            `${input.remote} 还没有稳定版本，首次发布不能灰度：请先不带 --canary 发布`,
          );
        }
        const running = await runningCanary(trx, input.remote);
        if (running) {
          throw new PointerMoveRefused(
            'canary-running',
            `${input.remote} 的灰度版本 ${running.version}（${running.percent}%）还在进行中：` +
              `先用 remote promote ${input.remote} ${running.version} 全量，` +
              `或 remote rollback ${input.remote} 结束灰度`,
          );
        }
        if (!(await insertRelease(trx, input))) return null;
        const canary = await trx
          .insertInto('remote_canaries')
          .values({
            remote: input.remote,
            version: input.version,
            stable_version: current.version,
            percent: input.percent,
            started_by: input.createdBy,
            note: input.note,
          })
          .returning(['id', 'version', 'percent', 'started_at', 'started_by', 'note'])
          .executeTakeFirstOrThrow();
        return {
          remote: input.remote,
          action: 'canary',
          from: current.version,
          to: input.version,
          note: input.note,
          canary: toRunningCanary(canary),
          endedCanary: null,
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
        const canary = await runningCanary(trx, input.remote);
        // A plain rollback during a canary, or a move to the stable version, ends the canary:
        // everyone back on the stable version, which is still the pointer, so nothing moves.
        if (canary && (input.to === null || input.to === current.version)) {
          await endCanary(trx, canary.id, 'rolled-back', input.actor);
          return {
            remote: input.remote,
            action: input.action,
            from: canary.version,
            to: current.version,
            note: input.note,
            canary: null,
            endedCanary: canary.version,
          };
        }
        let target: string;
        let previousId: number | null;
        if (input.to === null) {
          const previous = await previousActivation(trx, current.previous_id);
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
        // Any move of the pointer ends the canary: promoting the canary version makes it
        // everyone's; another version replaces what the canary was measured against.
        if (canary) {
          await endCanary(
            trx,
            canary.id,
            canary.version === target ? 'promoted' : 'superseded',
            input.actor,
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
          canary: null,
          endedCanary: canary?.version ?? null,
        };
      });
    },

    /**
     * The server's own rollback of a failing version, decided and made under the remote's lock
     * so that reports arriving at once roll back once. `version` is taken back when it is the
     * running canary (the canary ends) or the active version activated within the window, not
     * by `actor` itself (the active one is then rolled back like a plain rollback), and, since
     * it went out and within the window, at least `minUsers` distinct users made counted
     * reports of it (served it, see recordFailure) who are at least `sharePercent` % of the
     * distinct users it was served to there. Reports that do not count never do. Before acting
     * the version's files are checked (`inspect`), and the finding kept with the rollback.
     * Null when nothing was done.
     */
    async rollBackFailing(input: {
      remote: string;
      version: string;
      windowMs: number;
      minUsers: number;
      sharePercent: number;
      actor: string;
      inspect: () => Promise<ReleaseFilesCheck>;
      note: (evidence: FailureEvidence) => string;
    }): Promise<AutoRollbackRecord | null> {
      return db.transaction().execute(async (trx) => {
        await lockRemote(trx, input.remote);
        const current = await currentActivation(trx, input.remote);
        if (!current) return null;
        const canary = await runningCanary(trx, input.remote);
        // The database's clock, as the activation, serve and report times are.
        const [clock] = (
          await sql<{ cutoff: Date }>`
            SELECT now() - ${input.windowMs}::integer * interval '1 millisecond' AS cutoff
          `.execute(trx)
        ).rows;
        if (!clock) throw new Error('SELECT now() answered no row');
        const { cutoff } = clock;
        let wentOut: Date;
        if (canary?.version === input.version) wentOut = canary.started_at;
        else if (
          current.version === input.version &&
          current.actor !== input.actor &&
          current.activated_at > cutoff
        )
          wentOut = current.activated_at;
        else return null;
        const since = wentOut > cutoff ? wentOut : cutoff;
        const reports = trx
          .selectFrom('remote_load_failures')
          .where('remote', '=', input.remote)
          .where('version', '=', input.version)
          .where('counted', '=', true)
          .where('created_at', '>=', since);
        const users = (
          await reports.select('user_id').distinct().orderBy('user_id').execute()
        ).flatMap((row) => (row.user_id === null ? [] : [row.user_id]));
        if (users.length < input.minUsers) return null;
        // Everyone known to have run it in the window: served it since then, and the reporters
        // (a report proves a load; the registry read before it may be older than the window).
        const served = await trx
          .selectFrom(
            trx
              .selectFrom('remote_serves')
              .select('user_id')
              .where('remote', '=', input.remote)
              .where('version', '=', input.version)
              .where('last_served_at', '>=', since)
              .union(
                reports
                  .where('user_id', 'is not', null)
                  .select('user_id')
                  .$narrowType<{ user_id: number }>(),
              )
              .as('u'),
          )
          .select(({ fn }) => fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        const servedUsers = Number(served.n);
        // A few accounts among many users served it are no outage: the share must be there too.
        if (users.length * 100 < input.sharePercent * servedUsers) return null;
        // Taking it back: ending the canary, or moving the pointer to the activation before.
        const endsCanary = canary?.version === input.version ? canary : null;
        const previous = endsCanary ? null : await previousActivation(trx, current.previous_id);
        // A remote's first release has nothing to go back to: it stays, ops decide.
        if (!endsCanary && !previous) return null;
        const errors = (
          await reports
            .select(({ fn }) => ['phase', 'message', fn.countAll<string>().as('count')])
            .groupBy(['phase', 'message'])
            .orderBy('count', 'desc')
            .orderBy('message')
            .limit(5)
            .execute()
        ).map((row) => ({ phase: row.phase, message: row.message, count: Number(row.count) }));
        // Before acting: are the files whole? The decision rests on the reports either way (a
        // chunk can throw with a whole entry), but a broken release is named as the cause.
        // Asked under the lock, so once per rollback; it holds the lock no longer than a
        // manifest read and a stat of the store.
        const files = await input.inspect();
        const evidence: FailureEvidence = { users, errors, servedUsers, files };
        let to: string;
        if (endsCanary) {
          await endCanary(trx, endsCanary.id, 'auto-rollback', input.actor);
          to = current.version;
        } else if (previous) {
          if (canary) await endCanary(trx, canary.id, 'superseded', input.actor);
          await movePointer(trx, {
            remote: input.remote,
            version: previous.version,
            from: current.version,
            previousId: previous.previous_id,
            action: 'rollback',
            actor: input.actor,
            note: input.note(evidence),
          });
          to = previous.version;
        } else return null;
        const record = await trx
          .insertInto('remote_auto_rollbacks')
          .values({
            remote: input.remote,
            version: input.version,
            to_version: to,
            canary: endsCanary !== null,
            users: JSON.stringify(users),
            errors: JSON.stringify(errors),
            window_ms: input.windowMs,
            served_users: servedUsers,
            share_percent: input.sharePercent,
            files_status: files.status,
            files_detail: files.detail,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toAutoRollback(record);
      });
    },

    /** The server's own rollbacks, newest first; of one remote when named. */
    async listAutoRollbacks(remote: string | null, limit: number): Promise<AutoRollbackRecord[]> {
      let query = db.selectFrom('remote_auto_rollbacks').selectAll();
      if (remote !== null) query = query.where('remote', '=', remote);
      const rows = await query.orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toAutoRollback);
    },

    /** The canary running for a remote, if any. */
    async canary(remote: string): Promise<RunningCanary | null> {
      const row = await runningCanary(db, remote);
      return row ? toRunningCanary(row) : null;
    },

    /**
     * Every remote that has an active release, by name, with its last known good version and
     * its running canary.
     */
    async active(): Promise<ActiveRemote[]> {
      const [rows, good] = await Promise.all([
        db
          .selectFrom('remote_pointers')
          .innerJoin('remote_releases', (join) =>
            join
              .onRef('remote_releases.remote', '=', 'remote_pointers.remote')
              .onRef('remote_releases.version', '=', 'remote_pointers.active_version'),
          )
          .leftJoin('remote_canaries as c', (join) =>
            join.onRef('c.remote', '=', 'remote_pointers.remote').on('c.ended_at', 'is', null),
          )
          .leftJoin('remote_releases as cr', (join) =>
            join.onRef('cr.remote', '=', 'c.remote').onRef('cr.version', '=', 'c.version'),
          )
          .select([
            'remote_pointers.remote',
            'remote_pointers.active_version',
            'remote_releases.routes',
            'c.version as canary_version',
            'c.percent as canary_percent',
            'cr.routes as canary_routes',
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
        canary:
          row.canary_version && row.canary_percent !== null
            ? {
                version: row.canary_version,
                percent: row.canary_percent,
                routes: (row.canary_routes ?? []) as RouteClaim[],
              }
            : null,
      }));
    },

    lastKnownGood,

    /** The version a remote's pointer is on now; null before its first release. */
    async activeVersion(remote: string): Promise<string | null> {
      const row = await db
        .selectFrom('remote_pointers')
        .select('active_version')
        .where('remote', '=', remote)
        .executeTakeFirst();
      return row?.active_version ?? null;
    },

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
          selectFrom('remote_auto_rollbacks as ar')
            .select(({ fn }) => fn.max('ar.created_at').as('at'))
            .whereRef('ar.remote', '=', 'r.remote')
            .whereRef('ar.version', '=', 'r.version')
            .as('auto_rolled_back_at'),
          selectFrom('remote_auto_rollbacks as ar')
            .select('ar.files_status')
            .whereRef('ar.remote', '=', 'r.remote')
            .whereRef('ar.version', '=', 'r.version')
            .orderBy('ar.id', 'desc')
            .limit(1)
            .as('auto_rollback_files'),
        ]);
      let canaries = db
        .selectFrom('remote_canaries')
        .select(['remote', 'version', 'percent', 'started_at', 'started_by', 'note'])
        .where('ended_at', 'is', null);
      if (remote !== null) {
        query = query.where('r.remote', '=', remote);
        canaries = canaries.where('remote', '=', remote);
      }
      const [rows, good, running] = await Promise.all([
        query.orderBy('r.remote').orderBy('r.id', 'desc').execute(),
        lastKnownGood(remote),
        canaries.execute(),
      ]);
      const canaryOf = new Map(running.map((row) => [row.remote, toRunningCanary(row)]));
      const byRemote = new Map<string, RemoteVersionsRow>();
      for (const row of rows) {
        let entry = byRemote.get(row.remote);
        if (!entry) {
          entry = {
            remote: row.remote,
            active: row.active_version,
            lastKnownGood: good.get(row.remote) ?? null,
            canary: canaryOf.get(row.remote) ?? null,
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
          canaryPercent: entry.canary?.version === row.version ? entry.canary.percent : null,
          autoRolledBackAt: row.auto_rolled_back_at
            ? new Date(row.auto_rolled_back_at).toISOString()
            : null,
          autoRollbackFiles: row.auto_rollback_files ?? null,
        });
      }
      return [...byRemote.values()];
    },

    /**
     * Records which version of each remote the registry answered a signed-in user (active or
     * fallback): one statement, a row per remote and version, its last time renewed. Rows in
     * one order (remote, version), so two reads of one user at once lock them in the same
     * order and never deadlock.
     */
    async recordServes(userId: number, served: readonly ServedVersion[]): Promise<void> {
      const rows = [...new Map(served.map((s) => [`${s.remote}\n${s.version}`, s])).values()]
        .sort((a, b) =>
          a.remote === b.remote
            ? a.version.localeCompare(b.version)
            : a.remote.localeCompare(b.remote),
        )
        .map((s) => ({ remote: s.remote, version: s.version, user_id: userId }));
      if (rows.length === 0) return;
      await db
        .insertInto('remote_serves')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['remote', 'version', 'user_id'])
            .doUpdateSet({ last_served_at: sql<Date>`now()` }),
        )
        .execute();
    },

    /**
     * Stores a browser's load failure report, and whether it counts towards an automatic
     * rollback: only from a signed-in user the registry gave that version since it went out
     * (the running canary since it started, the active version since its activation, any other
     * version ever) and, for the running canary, one `inCanaryShare` picks. A report of a
     * version the server never handed that user is kept for ops, not counted. Answers whether
     * it counted.
     */
    async recordFailure(
      failure: RemoteLoadFailure & { userAgent: string; userId: number | null },
      inCanaryShare: (canary: { version: string; percent: number }) => boolean,
    ): Promise<{ counted: boolean }> {
      let counted = false;
      if (failure.userId !== null) {
        const [canary, current] = await Promise.all([
          runningCanary(db, failure.remote),
          currentActivation(db, failure.remote),
        ]);
        let wentOut: Date | null = null;
        let inShare = true;
        if (canary?.version === failure.version) {
          wentOut = canary.started_at;
          inShare = inCanaryShare(canary);
        } else if (current?.version === failure.version) wentOut = current.activated_at;
        if (inShare) {
          let served = db
            .selectFrom('remote_serves')
            .select('user_id')
            .where('remote', '=', failure.remote)
            .where('version', '=', failure.version)
            .where('user_id', '=', failure.userId);
          if (wentOut) served = served.where('last_served_at', '>=', wentOut);
          counted = (await served.executeTakeFirst()) !== undefined;
        }
      }
      await db
        .insertInto('remote_load_failures')
        .values({
          remote: failure.remote,
          version: failure.version,
          phase: failure.phase,
          message: failure.message,
          user_agent: failure.userAgent,
          user_id: failure.userId,
          counted,
        })
        .execute();
      return { counted };
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
        counted: row.counted,
        createdAt: row.created_at.toISOString(),
      }));
    },
  };
}

export type ReleasesRepository = ReturnType<typeof createReleasesRepository>;
