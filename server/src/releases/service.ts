import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { RemoteLoadFailure, RemoteRegistry } from '@kol/shared-sdk/contracts';
import { DEFAULTS, type RemoteAutoRollbackConfig } from '../config';
import type { Metrics } from '../ops/metrics';
import type { AuditRepository } from '../repositories/audit';
import type {
  AutoRollbackRecord,
  PointerChange,
  ReleasesRepository,
  RunningCanary,
} from '../repositories/releases';
import {
  HOST_NAME,
  inspectBuild,
  manifestName,
  MANIFEST_FILE,
  ReleaseRefused,
  type BuildCheck,
} from './build';
import { AUTO_ROLLBACK_ACTOR, autoRollbackNote, inCanary } from './canary';
import { remotesFitHostCheck, type RunningRemote, type StoredManifest } from './shared-check';
import { releaseKey, type ReleaseStore } from './store';

export interface PublishOptions {
  /** Who released it: an ops user, or the server's own auto-publish. */
  createdBy: string;
  note?: string;
  /**
   * Refuse (check `duplicate`) when this exact build is released already, instead of
   * answering `unchanged`: an ops release must never look as if it did something it did not.
   */
  refuseExisting?: boolean;
  /**
   * Release it as a canary for this percentage of the signed-in users (CANARY_PERCENT); the
   * rest, and every signed-out browser, keep the stable version.
   */
  canaryPercent?: number;
}

/** Who moved a pointer and why, for the activation history and the audit log. */
export interface MoveOptions {
  actor: string;
  note?: string;
}

export interface PublishResult {
  remote: string;
  version: string;
  /** `unchanged`: this exact build was released before; nothing was written or moved. */
  status: 'published' | 'unchanged';
  /** The version that was active before; null for a first release. */
  previous: string | null;
  /** The canary running after it (this release, when released as one). */
  canary: RunningCanary | null;
  /** A canary this release replaced (a release for everyone ends the running canary). */
  endedCanary: string | null;
}

/** Where the audit log gets each pointer move; `app.audit` in the app. */
export type AuditSink = Pick<AuditRepository, 'record'>;

export const AUTO_PUBLISHER = 'auto-publish';

/** Where browsers find a release's files; the route in routes/remotes.ts serves them. */
export const manifestUrl = (remote: string, version: string) =>
  `/remotes/${remote}/${version}/${MANIFEST_FILE}`;

/**
 * Releases remote builds, moves their pointers (rollback, promote) and answers the registry.
 * Files go to the store, pointers and their history to the database; every move is also an
 * audit record, whoever made it (the admin API or the start's auto-publish).
 */
export class ReleaseService {
  constructor(
    private readonly repository: ReleasesRepository,
    readonly store: ReleaseStore,
    private readonly log: FastifyBaseLogger,
    private readonly extraChecks: readonly BuildCheck[] = [],
    private readonly audit: AuditSink | null = null,
    private readonly autoRollback: RemoteAutoRollbackConfig = DEFAULTS.remoteAutoRollback,
    private readonly metrics: Metrics | null = null,
  ) {}

  private async audited(change: PointerChange, actor: string): Promise<void> {
    await this.audit?.record({
      actor,
      action: `remote.${change.action}`,
      target: `remote:${change.remote}`,
      details: {
        from: change.from,
        to: change.to,
        note: change.note,
        ...(change.canary ? { canaryPercent: change.canary.percent } : {}),
        ...(change.endedCanary ? { endedCanary: change.endedCanary } : {}),
      },
    });
  }

  private duplicate(remote: string, version: string): ReleaseRefused {
    return new ReleaseRefused(
      'duplicate',
      `发布被拒绝（重复发布检查）：${remote} 的版本 ${version} 已经发布过，发布从不覆盖；` +
        `要重新启用它，请用 remote promote ${remote} ${version}`,
    );
  }

  /**
   * Validates the build in `dir`, copies it into the store under its content version and
   * makes it active. Publishing the same build again changes nothing (or is refused with
   * `refuseExisting`).
   */
  async publishDir(remote: string, dir: string, options: PublishOptions): Promise<PublishResult> {
    const isHost = remote === HOST_NAME;
    if (isHost && options.canaryPercent !== undefined) {
      // One index.html per browser would need the page itself to pick a version by user;
      // the host is released to everyone or not at all.
      throw new ReleaseRefused(
        'name',
        `发布被拒绝（名称检查）：宿主 ${HOST_NAME} 不能灰度发布，请不带 --canary 发布`,
      );
    }
    // The remote checks (they read the host) for a remote; for the host, the reverse one:
    // the remotes browsers run now must fit the new host.
    const checks = isHost ? [remotesFitHostCheck(() => this.runningRemotes())] : this.extraChecks;
    const build = await inspectBuild(remote, dir, checks);
    const unchanged: PublishResult = {
      remote,
      version: build.version,
      status: 'unchanged',
      previous: null,
      canary: null,
      endedCanary: null,
    };
    if (await this.repository.find(remote, build.version)) {
      if (options.refuseExisting) throw this.duplicate(remote, build.version);
      return unchanged;
    }
    // The version may be stored without its row (a crash between the two, a new database on
    // an old store, or a refused canary): same version means same files, so it is kept.
    await this.store.write(build);
    const record = {
      remote,
      version: build.version,
      createdBy: options.createdBy,
      note: options.note ?? '',
      routes: build.routes,
    };
    // Throws PointerMoveRefused for a canary without a stable version or beside another one.
    const change =
      options.canaryPercent === undefined
        ? await this.repository.recordAndActivate(record)
        : await this.repository.recordCanary({ ...record, percent: options.canaryPercent });
    if (!change) {
      if (options.refuseExisting) throw this.duplicate(remote, build.version);
      return unchanged;
    }
    await this.audited(change, options.createdBy);
    this.log.info(
      { remote, version: build.version, previous: change.from, canary: change.canary?.percent },
      change.canary ? 'remote canary released' : 'remote released',
    );
    return {
      remote,
      version: build.version,
      status: 'published',
      previous: change.from,
      canary: change.canary,
      endedCanary: change.endedCanary,
    };
  }

  /**
   * Moves the pointer back: to the version active before the current one was activated, or
   * to `to` when named. While a canary runs, a plain rollback ends the canary instead (everyone
   * back on the stable version, which the pointer still is). No file is copied; browsers see it at their next load of the remote.
   * Throws PointerMoveRefused when there is nothing to move to.
   */
  async rollback(remote: string, to: string | null, options: MoveOptions): Promise<PointerChange> {
    return this.move(remote, to, 'rollback', options);
  }

  /** Makes any stored version active; promoting the canary version ends the canary. */
  async promote(remote: string, version: string, options: MoveOptions): Promise<PointerChange> {
    return this.move(remote, version, 'promote', options);
  }

  private async move(
    remote: string,
    to: string | null,
    action: 'rollback' | 'promote',
    options: MoveOptions,
  ): Promise<PointerChange> {
    const change = await this.repository.activate({
      remote,
      to,
      action,
      actor: options.actor,
      note: options.note ?? '',
    });
    await this.audited(change, options.actor);
    this.log.info({ remote, from: change.from, to: change.to }, `remote ${action}`);
    return change;
  }

  /** Every remote version browsers run now: each active one and each running canary. */
  private async runningRemotes(): Promise<RunningRemote[]> {
    const running: RunningRemote[] = [];
    for (const entry of await this.repository.active()) {
      if (entry.remote === HOST_NAME) continue;
      for (const version of [entry.version, entry.canary?.version]) {
        if (!version) continue;
        running.push({
          remote: entry.remote,
          version,
          manifest: this.manifest(entry.remote, version),
        });
      }
    }
    return running;
  }

  /** A stored release's manifest, read through the store by the shared checks. */
  manifest(remote: string, version: string): StoredManifest {
    return { store: this.store.files, key: releaseKey(remote, version, MANIFEST_FILE) };
  }

  /**
   * The active host release's version, whose files routes/host.ts serves; null before the
   * host's first release (the host build folder is served then, as before host releases
   * existed). Read at every request, so a rollback or promote shows at the next page load.
   */
  hostVersion(): Promise<string | null> {
    return this.repository.activeVersion(HOST_NAME);
  }

  /** The last known good version of a remote right now (see ReleasesRepository). */
  async lastKnownGood(remote: string): Promise<string | null> {
    return (await this.repository.lastKnownGood(remote)).get(remote) ?? null;
  }

  versions(remote: string | null) {
    return this.repository.versions(remote);
  }

  canary(remote: string): Promise<RunningCanary | null> {
    return this.repository.canary(remote);
  }

  /**
   * The registry as one browser gets it: a signed-in user in a remote's canary share gets the
   * canary version, with the stable version as its fallback (what everyone else runs); anyone
   * else, and every signed-out browser, the stable version. What a signed-in user is given
   * (each version and fallback) is recorded, so that only their reports of those versions
   * count towards an automatic rollback.
   */
  async registry(userId: number | null): Promise<RemoteRegistry> {
    // The host is served at the site root, never loaded as a remote.
    const active = (await this.repository.active()).filter((entry) => entry.remote !== HOST_NAME);
    const registry: RemoteRegistry = {
      remotes: active.map((entry) => {
        const canary =
          entry.canary &&
          userId !== null &&
          inCanary(userId, entry.remote, entry.canary.version, entry.canary.percent)
            ? entry.canary
            : null;
        const fallback = canary ? entry.version : entry.lastKnownGoodVersion;
        const version = canary?.version ?? entry.version;
        return {
          name: entry.remote,
          version,
          manifestUrl: manifestUrl(entry.remote, version),
          routes: canary?.routes ?? entry.routes,
          lastKnownGood: fallback
            ? { version: fallback, manifestUrl: manifestUrl(entry.remote, fallback) }
            : null,
        };
      }),
    };
    if (userId !== null) await this.recordServes(userId, registry);
    return registry;
  }

  private async recordServes(userId: number, registry: RemoteRegistry): Promise<void> {
    const served = registry.remotes.flatMap((entry) => [
      { remote: entry.name, version: entry.version },
      ...(entry.lastKnownGood
        ? [{ remote: entry.name, version: entry.lastKnownGood.version }]
        : []),
    ]);
    try {
      await this.repository.recordServes(userId, served);
    } catch (error) {
      // The page must load all the same; the cost is that this user's failure reports of these
      // versions may not count (the safe side: no rollback on them).
      this.log.error({ err: error, userId }, 'remote serves not recorded');
    }
  }

  /**
   * Records a browser's load failure. Only a report the server can vouch for counts: from a
   * signed-in user the registry gave that version (and, for a canary, one of its share); such a
   * report may then roll the version back (see ReleasesRepository.rollBackFailing). Any other,
   * signed out or of a version the user was never handed, is kept for ops and never moves
   * anything, so no handful of accounts can take a release away. A failed rollback attempt is
   * logged rather than answered: the browser did its part.
   */
  async reportFailure(
    failure: RemoteLoadFailure,
    context: { userAgent: string; userId: number | null },
  ): Promise<AutoRollbackRecord | null> {
    const { userId } = context;
    const { counted } = await this.repository.recordFailure(
      { ...failure, ...context },
      (canary) =>
        userId !== null && inCanary(userId, failure.remote, canary.version, canary.percent),
    );
    // A report the server cannot vouch for names what it likes: one label value for all of them.
    this.metrics?.remoteLoadFailures.inc(
      counted
        ? { remote: failure.remote, version: failure.version }
        : { remote: 'unverified', version: 'unverified' },
    );
    const { minUsers, windowMs, sharePercent } = this.autoRollback;
    // The host's page is what reports failures: a report naming it is kept, but only ops
    // move the host's pointer.
    if (!counted || minUsers <= 0 || failure.remote === HOST_NAME) return null;
    try {
      const done = await this.repository.rollBackFailing({
        remote: failure.remote,
        version: failure.version,
        windowMs,
        minUsers,
        sharePercent,
        actor: AUTO_ROLLBACK_ACTOR,
        inspect: () => this.store.checkFiles(failure.remote, failure.version),
        note: (evidence) => autoRollbackNote(failure.version, evidence, windowMs),
      });
      if (done) {
        this.metrics?.remoteRollbacks.inc({ remote: done.remote });
        await this.auditAutoRollback(done, minUsers);
      }
      return done;
    } catch (error) {
      this.log.error({ err: error, remote: failure.remote }, 'automatic rollback failed');
      return null;
    }
  }

  private async auditAutoRollback(done: AutoRollbackRecord, minUsers: number): Promise<void> {
    const reason = autoRollbackNote(done.version, done, done.windowMs);
    await this.audit?.record({
      actor: AUTO_ROLLBACK_ACTOR,
      action: 'remote.auto-rollback',
      target: `remote:${done.remote}`,
      details: {
        from: done.version,
        to: done.to,
        canary: done.canary,
        note: reason,
        users: done.users,
        userCount: done.users.length,
        minUsers,
        servedUsers: done.servedUsers,
        sharePercent: done.sharePercent,
        windowMs: done.windowMs,
        errors: done.errors,
        files: done.files,
      },
    });
    this.log.warn(
      {
        remote: done.remote,
        from: done.version,
        to: done.to,
        users: done.users,
        servedUsers: done.servedUsers,
        files: done.files?.status,
      },
      reason,
    );
  }

  listFailures(remote: string | null, limit = 100) {
    return this.repository.listFailures(remote, limit);
  }

  listAutoRollbacks(remote: string | null, limit = 100) {
    return this.repository.listAutoRollbacks(remote, limit);
  }

  /**
   * Publishes every `<root>/mfe-*\/dist` build whose content is not released yet, under the
   * name its manifest declares. A bad build is logged and skipped: that remote keeps its
   * previous release or the host shows its error page, and the rest of the product starts.
   */
  async autoPublish(root: string): Promise<PublishResult[]> {
    const results: PublishResult[] = [];
    for (const dir of await remoteBuildDirs(root)) {
      const remote = await manifestName(dir);
      if (!remote) {
        this.log.warn({ dir }, `remote build without a readable ${MANIFEST_FILE}: not published`);
        continue;
      }
      const result = await this.autoPublishOne(remote, dir);
      if (result) results.push(result);
    }
    return results;
  }

  /**
   * Publishes the host build in `dir` (host-shell/dist or HOST_DIST_DIR) when its content is
   * not released yet; first, so the remotes published after it are checked against it. No
   * build folder: nothing to do (the host route says the front end is not built).
   */
  async autoPublishHost(dir: string): Promise<PublishResult | null> {
    try {
      await readdir(dir);
    } catch {
      return null;
    }
    return this.autoPublishOne(HOST_NAME, dir);
  }

  private async autoPublishOne(remote: string, dir: string): Promise<PublishResult | null> {
    try {
      return await this.publishDir(remote, dir, { createdBy: AUTO_PUBLISHER });
    } catch (error) {
      // Whatever went wrong with one build (a refused build, a full disk), the server
      // starts: that remote (or the host) keeps its previous release or shows its error page.
      if (error instanceof ReleaseRefused)
        this.log.warn({ dir, check: error.check }, error.message);
      else this.log.error({ dir, err: error }, `${remote} build could not be released`);
      return null;
    }
  }
}

/** The `<root>/mfe-*\/dist` folders there are (built or half-built). */
export async function remoteBuildDirs(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory() && e.name.startsWith('mfe-'))) {
    const dist = path.join(root, entry.name, 'dist');
    try {
      await readdir(dist);
      dirs.push(dist);
    } catch {
      // Not built: nothing to publish.
    }
  }
  return dirs.sort();
}
