import type { Command, CommandGroup } from '../command';
import { auditCommands } from './audit';
import { noticeCommands } from './notice';
import { quotaCommands } from './quota';
import { remoteCommands } from './remote';
import { userCommands } from './user';

/**
 * Every command, by group, in the order `pnpm kol --help` lists them. A new command goes into
 * its group's module; a new group is a module beside these, listed here.
 */
export const GROUPS: CommandGroup[] = [
  userCommands,
  quotaCommands,
  noticeCommands,
  auditCommands,
  remoteCommands,
];

/** `user list` → the command; undefined for words that name none. */
export function findCommand(group: string, name: string | undefined): Command | undefined {
  return GROUPS.find((g) => g.name === group)?.commands.find((c) => c.name === name);
}
