import { adminEndpoints, type AdminUser } from '@kol/shared-sdk/contracts';
import { compact, integer, required, requiredArg, type Values } from '../args';
import { CliError, type Command, type CommandGroup } from '../command';
import { printTable } from '../output';

/** `--template-ids 0,1,2` → [0, 1, 2]; given empty, [] (no templates). */
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

/** The profile options `user create` and `user set` share, those given only. */
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

const create: Command = {
  name: 'create',
  usage: [
    'user create --username U --password P [--nickname N] [--template-ids 0,1,2]',
    '            [--functional-level L] [--status S]',
  ],
  async run({ values, call, quiet, io }) {
    const user = (await call(adminEndpoints.createUser, {
      username: required(values, 'username'),
      password: required(values, 'password'),
      ...userProfileFields(values),
    })) as AdminUser;
    if (!quiet) io.out(`Created user ${describeUser(user)}`);
  },
};

const set: Command = {
  name: 'set',
  usage: [
    'user set U [--password P] [--nickname N] [--template-ids 0,1,2] [--functional-level L]',
    '           [--status S] [--home-page-url URL] [--enable]',
  ],
  async run({ values, args, call, quiet, io }) {
    const username = requiredArg(
      args[0],
      'user set needs a username: pnpm kol user set U [options]',
    );
    const user = (await call(adminEndpoints.updateUser, {
      username,
      ...userProfileFields(values),
      ...compact({
        password: values.password,
        homePageUrl: values['home-page-url'],
        disabled: values.enable ? false : undefined,
      }),
    })) as AdminUser;
    if (!quiet) io.out(`Updated user ${describeUser(user)}`);
  },
};

const disable: Command = {
  name: 'disable',
  usage: ['user disable U'],
  async run({ args, call, quiet, io }) {
    const username = requiredArg(args[0], 'user disable needs a username: pnpm kol user disable U');
    const user = (await call(adminEndpoints.disableUser, { username })) as AdminUser;
    if (!quiet) io.out(`Disabled user ${user.username}; their sessions have ended.`);
  },
};

const list: Command = {
  name: 'list',
  usage: ['user list'],
  async run({ call, quiet, io }) {
    const { items } = (await call(adminEndpoints.listUsers)) as { items: AdminUser[] };
    if (quiet) return;
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
  },
};

/** Accounts: create, change, disable, list. */
export const userCommands: CommandGroup = {
  name: 'user',
  commands: [create, set, disable, list],
};
