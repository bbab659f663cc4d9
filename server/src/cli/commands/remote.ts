import {
  adminEndpoints,
  CANARY_PERCENT,
  type RemoteAutoRollback,
  type RemoteChange,
  type RemoteVersions,
  type StoredRemoteFailure,
} from '@kol/shared-sdk/contracts';
import { compact, integer, requiredArg } from '../args';
import { CliError, type CliIo, type Command, type CommandGroup } from '../command';
import { printTable } from '../output';
import { buildDir, buildForm } from '../release-form';

/**
 * `mfe_user: 0.1.0-aaaa → 0.1.0-bbbb`, then what became of a canary, then the fallback
 * browsers now have.
 */
function describeChange(change: RemoteChange, io: CliIo): void {
  const verb = {
    release: 'released',
    canary: `canary: ${change.canary?.percent ?? '?'}% of signed-in users`,
    rollback: 'rolled back',
    promote: 'promoted',
  }[change.action];
  io.out(`${change.remote}: ${change.from ?? '(none)'} → ${change.to}  (${verb})`);
  if (change.canary)
    io.out(`stable: ${change.from ?? '(none)'} for everyone else and signed-out browsers`);
  if (change.endedCanary) io.out(`canary ended: ${change.endedCanary} (everyone on ${change.to})`);
  io.out(`last known good: ${change.lastKnownGood ?? '(none)'}`);
}

/** `--canary 10` → 10; absent → undefined; outside CANARY_PERCENT a usage error. */
function canaryOption(raw: string | undefined): number | undefined {
  const percent = integer('canary', raw);
  if (percent !== undefined && (percent < CANARY_PERCENT.min || percent > CANARY_PERCENT.max))
    throw new CliError(
      `--canary must be a percentage from ${CANARY_PERCENT.min} to ${CANARY_PERCENT.max}, got ${percent}`,
      2,
    );
  return percent;
}

/** `files broken (entry-missing)` and what was found, or `files ok`: the store check. */
function describeFiles(files: RemoteAutoRollback['files']): string {
  if (!files) return 'files not checked';
  const state =
    files.status === 'ok'
      ? 'files ok'
      : files.status === 'unreadable'
        ? 'files unchecked (store unreadable)'
        : `files broken (${files.status})`;
  return `${state}: ${files.detail}`;
}

/**
 * `mfe_user 0.1.0-bbbb → 0.1.0-aaaa (canary ended), 3 signed-in user(s) (7, 9, 12) of 4
 * served within 600 s: loadEntry …`, then what the files check found.
 */
function describeAutoRollback(rollback: RemoteAutoRollback): string[] {
  const top = rollback.errors[0];
  const served =
    rollback.servedUsers === null
      ? ''
      : ` of ${rollback.servedUsers} served (share needed ${rollback.sharePercent ?? '?'}%)`;
  return [
    `${rollback.createdAt}  ${rollback.remote} ${rollback.version} → ${rollback.to}` +
      ` (${rollback.canary ? 'canary ended' : 'rolled back'}), ` +
      `${rollback.users.length} signed-in user(s) (${rollback.users.join(', ')})${served}` +
      ` within ${Math.round(rollback.windowMs / 1000)} s` +
      (top ? `: ${top.phase} ${top.message.replace(/\s+/g, ' ').slice(0, 120)}` : ''),
    `    ${describeFiles(rollback.files)}`,
  ];
}

const release: Command = {
  name: 'release',
  usage: [
    'remote release NAME [--dir BUILD_DIR] [--note TEXT] [--canary PERCENT]',
    "               (uploads a remote's build and makes it active; default dir:",
    '                <repo>/<name with - for _>/dist, e.g. mfe_user -> mfe-user/dist;',
    '                --canary: active only for that % of signed-in users, chosen by user;',
    '                NAME host_shell: the host shell, host-shell/dist, never a canary)',
  ],
  async run({ values, args, call, quiet, io }) {
    const remote = requiredArg(
      args[0],
      'remote release needs a remote name: pnpm kol remote release mfe_user',
    );
    const percent = canaryOption(values.canary);
    const dir = buildDir(remote, values.dir, io.env);
    const form = await buildForm(remote, dir, values.note ?? '', percent);
    const change = (await call(adminEndpoints.releaseRemote, undefined, form)) as RemoteChange;
    if (!quiet) describeChange(change, io);
  },
};

const list: Command = {
  name: 'list',
  usage: ['remote list [NAME]'],
  async run({ args, call, quiet, io }) {
    const { items } = (await call(adminEndpoints.listRemotes, compact({ remote: args[0] }))) as {
      items: RemoteVersions[];
    };
    if (quiet) return;
    const rows = items.flatMap((remote) =>
      remote.versions.map((v) => [
        remote.remote,
        v.version,
        [
          v.active && 'active',
          v.canaryPercent !== null && `canary ${v.canaryPercent}%`,
          v.lastKnownGood && 'last known good',
          // With what the server found of its files then: `files ok`, `files entry-missing`…
          v.autoRolledBackAt &&
            `auto-rolled back${v.autoRollbackFiles ? ` (files ${v.autoRollbackFiles})` : ''}`,
        ]
          .filter(Boolean)
          .join(', '),
        v.createdAt,
        v.createdBy,
        v.activatedAt ? `${v.activatedAt} ${v.activatedBy ?? ''}` : '-',
        String(v.failures),
        v.note,
      ]),
    );
    printTable(
      io,
      ['REMOTE', 'VERSION', 'STATE', 'RELEASED', 'BY', 'LAST ACTIVATED', 'FAILURES', 'NOTE'],
      rows,
      `${rows.length} version(s) of ${items.length} remote(s)`,
    );
    for (const { remote, active, canary } of items) {
      if (!canary) continue;
      io.out(
        `canary: ${remote} ${canary.version} for ${canary.percent}% of signed-in users ` +
          `(stable ${active ?? '(none)'}), since ${canary.startedAt} by ${canary.startedBy}`,
      );
    }
  },
};

const rollback: Command = {
  name: 'rollback',
  usage: [
    'remote rollback NAME [--to VERSION] [--note TEXT]',
    '               (back to the version active before, or to the one named;',
    '                during a canary: ends it, everyone back on the stable version)',
  ],
  async run({ values, args, call, quiet, io }) {
    const remote = requiredArg(
      args[0],
      'remote rollback needs a remote name: pnpm kol remote rollback mfe_user',
    );
    const change = (await call(adminEndpoints.rollbackRemote, {
      remote,
      ...compact({ to: values.to, note: values.note }),
    })) as RemoteChange;
    if (!quiet) describeChange(change, io);
  },
};

const PROMOTE_NEEDS =
  'remote promote needs a remote and a version: pnpm kol remote promote mfe_user 0.1.0-1a2b3c4d';

const promote: Command = {
  name: 'promote',
  usage: [
    'remote promote NAME VERSION [--note TEXT]',
    "               (promoting the canary version makes it everyone's and ends the canary)",
  ],
  async run({ values, args, call, quiet, io }) {
    const remote = requiredArg(args[0], PROMOTE_NEEDS);
    const version = requiredArg(args[1], PROMOTE_NEEDS);
    const change = (await call(adminEndpoints.promoteRemote, {
      remote,
      version,
      ...compact({ note: values.note }),
    })) as RemoteChange;
    if (!quiet) describeChange(change, io);
  },
};

const failures: Command = {
  name: 'failures',
  usage: ['remote failures [NAME] [--limit N]'],
  async run({ values, args, call, quiet, io }) {
    const limit = integer('limit', values.limit);
    const { items, autoRollbacks } = (await call(
      adminEndpoints.listRemoteFailures,
      compact({ remote: args[0], limit: limit?.toString() }),
    )) as { items: StoredRemoteFailure[]; autoRollbacks: RemoteAutoRollback[] };
    if (quiet) return;
    const rows = items.map((f) => [
      f.createdAt,
      // Signed-out reports are kept but never roll anything back: `-` tells them apart.
      f.userId === null ? '-' : String(f.userId),
      // `no`: signed out, or a version the server never handed that user (or, for a canary,
      // a user outside its share): kept, never counted towards an automatic rollback.
      f.counted ? 'yes' : 'no',
      f.remote,
      f.version,
      f.phase,
      // One line per failure: a stack's newlines would break the table.
      f.message.replace(/\s+/g, ' ').slice(0, 200),
    ]);
    printTable(
      io,
      ['WHEN', 'USER', 'COUNTED', 'REMOTE', 'VERSION', 'PHASE', 'MESSAGE'],
      rows,
      `${items.length} failure(s)`,
    );
    if (autoRollbacks.length > 0) {
      io.out('');
      io.out('automatic rollbacks, newest first:');
      for (const rollback of autoRollbacks)
        for (const line of describeAutoRollback(rollback)) io.out(line);
    }
  },
};

/**
 * The micro-frontends' releases: upload (to everyone or as a canary), list, move the active
 * version, read failures and the server's own rollbacks.
 */
export const remoteCommands: CommandGroup = {
  name: 'remote',
  commands: [release, list, rollback, promote, failures],
};
