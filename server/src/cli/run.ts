import { QUOTA_TYPES, QUOTA_TYPE_LABELS, type QuotaType } from '@kol/shared-sdk/contracts';
import {
  adminEndpoints,
  type AdminUser,
  type AuditEntry,
  type RemoteChange,
  type RemoteVersions,
  type StoredRemoteFailure,
} from '@kol/shared-sdk/contracts';
import { adminCaller } from './admin-client';
import { compact, integer, parseCommandLine, required, type Values } from './args';
import { CliError, type CliIo } from './command';
import { printTable } from './output';
import { buildDir, buildForm } from './release-form';

export const USAGE = `Usage: pnpm kol <command> [options]

  user create --username U --password P [--nickname N] [--template-ids 0,1,2]
              [--functional-level L] [--status S]
  user set U [--password P] [--nickname N] [--template-ids 0,1,2] [--functional-level L]
             [--status S] [--home-page-url URL] [--enable]
  user disable U
  user list
  quota grant U --type ${QUOTA_TYPES.join('|')}
              [--gen N] [--reward N] [--merge N]   (adds; take away with --gen=-N)
  notice publish --title T --content C [--category NAME]
  audit list [--limit N]
  remote release NAME [--dir BUILD_DIR] [--note TEXT]
                 (uploads a remote's build and makes it active; default dir:
                  <repo>/<name with - for _>/dist, e.g. mfe_user -> mfe-user/dist)
  remote list [NAME]
  remote rollback NAME [--to VERSION] [--note TEXT]
                 (back to the version active before, or to the one named)
  remote promote NAME VERSION [--note TEXT]
  remote failures [NAME] [--limit N]

Options for every command:
  --server URL   the running server (default http://127.0.0.1:$PORT, PORT default 8080)
  --actor NAME   who you are, for the audit log (default: your OS user)
  --json         print the server's answer as JSON

The admin token comes from KOL_ADMIN_TOKEN, or from DATA_DIR/admin-token.`;

function templateIds(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const id = integer('template-ids', part);
    if (id === undefined || id < 0 || id > 6)
      throw new CliError(`--template-ids takes numbers 0 to 6, got "${part}"`, 2);
    return id;
  });
}

function userProfileFields(values: Values) {
  return compact({
    nickname: values.nickname,
    templateIds: templateIds(values['template-ids']),
    functionalLevel: integer('functional-level', values['functional-level']),
    status: integer('status', values.status),
  });
}

function describeUser(user: AdminUser): string {
  return (
    `${user.username} (id ${user.userId}) nickname "${user.nickname}", status ${user.status}, ` +
    `functional level ${user.functionalLevel}, template ids [${user.templateIds.join(',')}]` +
    `${user.homePageUrl ? `, home page ${user.homePageUrl}` : ''}${user.disabled ? ', DISABLED' : ''}`
  );
}

/** `mfe_user: 0.1.0-aaaa → 0.1.0-bbbb`, then the fallback browsers now have. */
function describeChange(change: RemoteChange, io: CliIo): void {
  const verb = { release: 'released', rollback: 'rolled back', promote: 'promoted' }[change.action];
  io.out(`${change.remote}: ${change.from ?? '(none)'} → ${change.to}  (${verb})`);
  io.out(`last known good: ${change.lastKnownGood ?? '(none)'}`);
}

/**
 * Runs one CLI command against a running server's admin API and answers the exit code.
 * Separate from src/cli.ts so tests can call it with their own server and output.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, command, target] = positionals;
  if (values.help || !group) {
    io.out(USAGE);
    return values.help ? 0 : 2;
  }

  const call = adminCaller(values, io);
  const quiet = values.json === true;
  try {
    switch (`${group} ${command ?? ''}`) {
      case 'user create': {
        const user = (await call(adminEndpoints.createUser, {
          username: required(values, 'username'),
          password: required(values, 'password'),
          ...userProfileFields(values),
        })) as AdminUser;
        if (!quiet) io.out(`Created user ${describeUser(user)}`);
        return 0;
      }
      case 'user set': {
        if (!target)
          throw new CliError('user set needs a username: pnpm kol user set U [options]', 2);
        const user = (await call(adminEndpoints.updateUser, {
          username: target,
          ...userProfileFields(values),
          ...compact({
            password: values.password,
            homePageUrl: values['home-page-url'],
            disabled: values.enable ? false : undefined,
          }),
        })) as AdminUser;
        if (!quiet) io.out(`Updated user ${describeUser(user)}`);
        return 0;
      }
      case 'user disable': {
        if (!target)
          throw new CliError('user disable needs a username: pnpm kol user disable U', 2);
        const user = (await call(adminEndpoints.disableUser, { username: target })) as AdminUser;
        if (!quiet) io.out(`Disabled user ${user.username}; their sessions have ended.`);
        return 0;
      }
      case 'user list': {
        const { items } = (await call(adminEndpoints.listUsers)) as { items: AdminUser[] };
        if (!quiet) {
          const rows = items.map((u) => [
            String(u.userId),
            u.username,
            u.nickname,
            String(u.status),
            String(u.functionalLevel),
            u.templateIds.join(','),
            u.disabled ? 'disabled' : 'active',
          ]);
          printTable(
            io,
            ['ID', 'USERNAME', 'NICKNAME', 'STATUS', 'LEVEL', 'TEMPLATES', 'STATE'],
            rows,
            `${items.length} user(s)`,
          );
        }
        return 0;
      }
      case 'quota grant': {
        if (!target)
          throw new CliError('quota grant needs a username: pnpm kol quota grant U --type T', 2);
        const type = required(values, 'type');
        if (!(QUOTA_TYPES as string[]).includes(type)) {
          throw new CliError(`--type must be one of ${QUOTA_TYPES.join(', ')}`, 2);
        }
        const counts = (await call(adminEndpoints.grantQuota, {
          username: target,
          type,
          ...compact({
            gen: integer('gen', values.gen),
            reward: integer('reward', values.reward),
            merge: integer('merge', values.merge),
          }),
        })) as { gen: number; reward: number; merge: number };
        if (!quiet) {
          io.out(
            `${target} ${type} (${QUOTA_TYPE_LABELS[type as QuotaType]}) now has ` +
              `gen ${counts.gen}, reward ${counts.reward}, merge ${counts.merge}`,
          );
        }
        return 0;
      }
      case 'notice publish': {
        const notice = (await call(adminEndpoints.publishNotice, {
          title: required(values, 'title'),
          content: required(values, 'content'),
          ...compact({ category: values.category }),
        })) as { id: number; categoryName: string; title: string };
        if (!quiet)
          io.out(`Published notice ${notice.id} "${notice.title}" in ${notice.categoryName}`);
        return 0;
      }
      case 'audit list': {
        const limit = integer('limit', values.limit);
        const { items } = (await call(
          adminEndpoints.listAudit,
          compact({ limit: limit?.toString() }),
        )) as {
          items: AuditEntry[];
        };
        if (!quiet) {
          const rows = items.map((e) => [
            e.createdAt,
            e.actor,
            e.action,
            e.target,
            JSON.stringify(e.details),
          ]);
          printTable(
            io,
            ['WHEN', 'WHO', 'ACTION', 'TARGET', 'DETAILS'],
            rows,
            `${items.length} record(s)`,
          );
        }
        return 0;
      }
      case 'remote release': {
        if (!target)
          throw new CliError(
            'remote release needs a remote name: pnpm kol remote release mfe_user',
            2,
          );
        const dir = buildDir(target, values.dir, io.env);
        const form = await buildForm(target, dir, values.note ?? '');
        const change = (await call(adminEndpoints.releaseRemote, undefined, form)) as RemoteChange;
        if (!quiet) describeChange(change, io);
        return 0;
      }
      case 'remote list': {
        const { items } = (await call(adminEndpoints.listRemotes, compact({ remote: target }))) as {
          items: RemoteVersions[];
        };
        if (!quiet) {
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
        }
        return 0;
      }
      case 'remote rollback': {
        if (!target)
          throw new CliError(
            'remote rollback needs a remote name: pnpm kol remote rollback mfe_user',
            2,
          );
        const change = (await call(adminEndpoints.rollbackRemote, {
          remote: target,
          ...compact({ to: values.to, note: values.note }),
        })) as RemoteChange;
        if (!quiet) describeChange(change, io);
        return 0;
      }
      case 'remote promote': {
        const version = positionals[3];
        if (!target || !version)
          throw new CliError(
            'remote promote needs a remote and a version: pnpm kol remote promote mfe_user 0.1.0-1a2b3c4d',
            2,
          );
        const change = (await call(adminEndpoints.promoteRemote, {
          remote: target,
          version,
          ...compact({ note: values.note }),
        })) as RemoteChange;
        if (!quiet) describeChange(change, io);
        return 0;
      }
      case 'remote failures': {
        const limit = integer('limit', values.limit);
        const { items } = (await call(
          adminEndpoints.listRemoteFailures,
          compact({ remote: target, limit: limit?.toString() }),
        )) as { items: StoredRemoteFailure[] };
        if (!quiet) {
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
        }
        return 0;
      }
      default:
        throw new CliError(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`, 2);
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    throw error;
  }
}
