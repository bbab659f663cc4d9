import {
  adminEndpoints,
  QUOTA_TYPES,
  QUOTA_TYPE_LABELS,
  type QuotaType,
} from '@kol/shared-sdk/contracts';
import { compact, integer, required, requiredArg } from '../args';
import { CliError, type Command, type CommandGroup } from '../command';

const grant: Command = {
  name: 'grant',
  usage: [
    `quota grant U --type ${QUOTA_TYPES.join('|')}`,
    '            [--gen N] [--reward N] [--merge N]   (adds; take away with --gen=-N)',
  ],
  async run({ values, args, call, quiet, io }) {
    const username = requiredArg(
      args[0],
      'quota grant needs a username: pnpm kol quota grant U --type T',
    );
    const type = required(values, 'type');
    if (!(QUOTA_TYPES as string[]).includes(type)) {
      throw new CliError(`--type must be one of ${QUOTA_TYPES.join(', ')}`, 2);
    }
    const counts = (await call(adminEndpoints.grantQuota, {
      username,
      type,
      ...compact({
        gen: integer('gen', values.gen),
        reward: integer('reward', values.reward),
        merge: integer('merge', values.merge),
      }),
    })) as { gen: number; reward: number; merge: number };
    if (quiet) return;
    io.out(
      `${username} ${type} (${QUOTA_TYPE_LABELS[type as QuotaType]}) now has ` +
        `gen ${counts.gen}, reward ${counts.reward}, merge ${counts.merge}`,
    );
  },
};

/** Quotas: add to (or take from) a user's counts of one video type. */
export const quotaCommands: CommandGroup = {
  name: 'quota',
  commands: [grant],
};
