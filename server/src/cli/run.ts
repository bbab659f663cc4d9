import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { QUOTA_TYPES, QUOTA_TYPE_LABELS, type QuotaType } from '@kol/shared-sdk/contracts';
import {
  adminEndpoints,
  MAX_RELEASE_BYTES,
  MAX_RELEASE_FILES,
  type AdminUser,
  type AuditEntry,
  type EndpointDef,
  type RemoteChange,
  type RemoteVersions,
  type StoredRemoteFailure,
} from '@kol/shared-sdk/contracts';
import { adminTokenPath, readAdminToken } from '../admin-token';
import type { CliEnv } from '../env';
import { findRepoRoot } from '../paths';
import { listBuildFiles, ReleaseRefused } from '../releases/build';

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

export interface CliIo {
  env: CliEnv;
  out(line: string): void;
  err(line: string): void;
}

/** A failure to report in one line, exit code 1 (2 for usage errors). */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const OPTIONS = {
  server: { type: 'string' },
  actor: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  username: { type: 'string' },
  password: { type: 'string' },
  nickname: { type: 'string' },
  'template-ids': { type: 'string' },
  'functional-level': { type: 'string' },
  status: { type: 'string' },
  'home-page-url': { type: 'string' },
  enable: { type: 'boolean' },
  type: { type: 'string' },
  gen: { type: 'string' },
  reward: { type: 'string' },
  merge: { type: 'string' },
  title: { type: 'string' },
  content: { type: 'string' },
  category: { type: 'string' },
  limit: { type: 'string' },
  dir: { type: 'string' },
  note: { type: 'string' },
  to: { type: 'string' },
} satisfies ParseArgsConfig['options'];

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim()))
    throw new CliError(`--${name} must be an integer, got "${raw}"`, 2);
  return Number(raw);
}

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

function required(
  values: Values,
  name: 'username' | 'password' | 'type' | 'title' | 'content',
): string {
  const value = values[name];
  if (value === undefined || value === '') throw new CliError(`--${name} is required`, 2);
  return value;
}

/** Drops undefined fields so the server's optional fields stay absent. */
function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

function userProfileFields(values: Values) {
  return compact({
    nickname: values.nickname,
    templateIds: templateIds(values['template-ids']),
    functionalLevel: integer('functional-level', values['functional-level']),
    status: integer('status', values.status),
  });
}

async function adminToken(env: CliEnv): Promise<string> {
  if (env.adminToken) return env.adminToken;
  try {
    return await readAdminToken(env.dataDir);
  } catch {
    throw new CliError(
      `No admin token: set KOL_ADMIN_TOKEN or start the server once so that it writes ${adminTokenPath(env.dataDir)}`,
    );
  }
}

function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function describeUser(user: AdminUser): string {
  return (
    `${user.username} (id ${user.userId}) nickname "${user.nickname}", status ${user.status}, ` +
    `functional level ${user.functionalLevel}, template ids [${user.templateIds.join(',')}]` +
    `${user.homePageUrl ? `, home page ${user.homePageUrl}` : ''}${user.disabled ? ', DISABLED' : ''}`
  );
}

/** `mfe_user` → `<repo>/mfe-user/dist`, or --dir resolved from where the command was typed. */
function buildDir(remote: string, dir: string | undefined, env: CliEnv): string {
  if (dir !== undefined) return path.resolve(env.cwd ?? process.cwd(), dir);
  return path.join(env.repoRoot ?? findRepoRoot(), remote.replace(/_/g, '-'), 'dist');
}

/**
 * The build as the release upload takes it: fields first, then one part per file named by its
 * path relative to the build folder. Files are the ones a release keeps (dotfiles such as the
 * start script's stamp left out), read lazily from disk. Limits are checked here too, so a
 * build that is too big fails before anything is sent.
 */
async function buildForm(remote: string, dir: string, note: string): Promise<FormData> {
  let files: string[];
  try {
    files = await listBuildFiles(dir);
  } catch (error) {
    if (error instanceof ReleaseRefused) {
      throw new CliError(
        `${error.message}\nBuild it first (pnpm --filter @kol/${remote.replace(/_/g, '-')} build) or give --dir.`,
      );
    }
    throw error;
  }
  if (files.length > MAX_RELEASE_FILES)
    throw new CliError(
      `${dir} has ${files.length} files; a release takes at most ${MAX_RELEASE_FILES}`,
    );
  const form = new FormData();
  form.append('remote', remote);
  form.append('note', note);
  let total = 0;
  for (const file of files) {
    const full = path.join(dir, ...file.split('/'));
    total += (await stat(full)).size;
    if (total > MAX_RELEASE_BYTES)
      throw new CliError(
        `${dir} is over ${MAX_RELEASE_BYTES / 1024 / 1024} MB; a release takes at most that`,
      );
    form.append('file', await openAsBlob(full), file);
  }
  return form;
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
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
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

  const server = (values.server ?? io.env.defaultServer).replace(/\/+$/, '');
  // `||`: an unset USER reads as '', and the audit log should still name someone.
  const actor = values.actor ?? (io.env.osUser || os.userInfo().username);

  async function call<E extends EndpointDef>(
    def: E,
    payload?: Record<string, unknown>,
    form?: FormData,
  ): Promise<unknown> {
    const token = await adminToken(io.env);
    const query =
      def.method === 'GET' && payload
        ? `?${new URLSearchParams(payload as Record<string, string>)}`
        : '';
    let response: Response;
    try {
      response = await fetch(`${server}${def.path}${query}`, {
        method: def.method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-kol-actor': encodeURIComponent(actor),
          // A form sets its own multipart content type, boundary included.
          ...(def.method === 'POST' && !form ? { 'content-type': 'application/json' } : {}),
        },
        body: form ?? (def.method === 'POST' ? JSON.stringify(payload ?? {}) : undefined),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      throw new CliError(
        `Cannot reach the server at ${server} (${cause}). Is it running? Use --server to point elsewhere.`,
      );
    }
    let envelope: { code?: unknown; msg?: unknown; data?: unknown };
    try {
      envelope = (await response.json()) as typeof envelope;
    } catch {
      throw new CliError(
        `${server} answered HTTP ${response.status} without a KOL envelope: is it the KOL server?`,
      );
    }
    if (envelope.code !== 0)
      throw new CliError(`Failed (${String(envelope.code)}): ${String(envelope.msg)}`);
    if (values.json) io.out(JSON.stringify(envelope.data, null, 2));
    return envelope.data;
  }

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
          for (const line of table([
            ['ID', 'USERNAME', 'NICKNAME', 'STATUS', 'LEVEL', 'TEMPLATES', 'STATE'],
            ...rows,
          ])) {
            io.out(line);
          }
          io.out(`${items.length} user(s)`);
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
          for (const line of table([['WHEN', 'WHO', 'ACTION', 'TARGET', 'DETAILS'], ...rows]))
            io.out(line);
          io.out(`${items.length} record(s)`);
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
          for (const line of table([
            ['REMOTE', 'VERSION', 'STATE', 'RELEASED', 'BY', 'LAST ACTIVATED', 'FAILURES', 'NOTE'],
            ...rows,
          ]))
            io.out(line);
          io.out(`${rows.length} version(s) of ${items.length} remote(s)`);
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
          for (const line of table([['WHEN', 'REMOTE', 'VERSION', 'PHASE', 'MESSAGE'], ...rows]))
            io.out(line);
          io.out(`${items.length} failure(s)`);
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
