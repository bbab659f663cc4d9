import { adminEndpoints, type AuditEntry } from '@kol/shared-sdk/contracts';
import { compact, integer } from '../args';
import type { Command, CommandGroup } from '../command';
import { printTable } from '../output';

const list: Command = {
  name: 'list',
  usage: ['audit list [--limit N]'],
  async run({ values, call, quiet, io }) {
    const limit = integer('limit', values.limit);
    const { items } = (await call(
      adminEndpoints.listAudit,
      compact({ limit: limit?.toString() }),
    )) as { items: AuditEntry[] };
    if (quiet) return;
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
  },
};

/** The audit log every admin call writes. */
export const auditCommands: CommandGroup = {
  name: 'audit',
  commands: [list],
};
