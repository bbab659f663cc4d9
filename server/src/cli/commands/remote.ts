import {
  adminEndpoints,
  type RemoteChange,
  type RemoteVersions,
  type StoredRemoteFailure,
} from '@kol/shared-sdk/contracts';
import { compact, integer, requiredArg } from '../args';
import type { CliIo, Command, CommandGroup } from '../command';
import { printTable } from '../output';
import { buildDir, buildForm } from '../release-form';

/** `mfe_user: 0.1.0-aaaa → 0.1.0-bbbb`, then the fallback browsers now have. */
function describeChange(change: RemoteChange, io: CliIo): void {
  const verb = { release: 'released', rollback: 'rolled back', promote: 'promoted' }[change.action];
  io.out(`${change.remote}: ${change.from ?? '(none)'} → ${change.to}  (${verb})`);
  io.out(`last known good: ${change.lastKnownGood ?? '(none)'}`);
}

const release: Command = {
  name: 'release',
  usage: [
    'remote release NAME [--dir BUILD_DIR] [--note TEXT]',
    "               (uploads a remote's build and makes it active; default dir:",
    '                <repo>/<name with - for _>/dist, e.g. mfe_user -> mfe-user/dist)',
  ],
  async run({ values, args, call, quiet, io }) {
    const remote = requiredArg(
      args[0],
      'remote release needs a remote name: pnpm kol remote release mfe_user',
    );
    const dir = buildDir(remote, values.dir, io.env);
    const form = await buildForm(remote, dir, values.note ?? '');
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
        v.active ? 'active' : v.lastKnownGood ? 'last known good' : '',
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
  },
};

const rollback: Command = {
  name: 'rollback',
  usage: [
    'remote rollback NAME [--to VERSION] [--note TEXT]',
    '               (back to the version active before, or to the one named)',
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
  usage: ['remote promote NAME VERSION [--note TEXT]'],
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
    const { items } = (await call(
      adminEndpoints.listRemoteFailures,
      compact({ remote: args[0], limit: limit?.toString() }),
    )) as { items: StoredRemoteFailure[] };
    if (quiet) return;
    const rows = items.map((f) => [
      f.createdAt,
      f.remote,
      f.version,
      f.phase,
      // One line per failure: a stack's newlines would break the table.
      f.message.replace(/\s+/g, ' ').slice(0, 200),
    ]);
    printTable(
      io,
      ['WHEN', 'REMOTE', 'VERSION', 'PHASE', 'MESSAGE'],
      rows,
      `${items.length} failure(s)`,
    );
  },
};

/** The micro-frontends' releases: upload, list, move the active version, read failures. */
export const remoteCommands: CommandGroup = {
  name: 'remote',
  commands: [release, list, rollback, promote, failures],
};
