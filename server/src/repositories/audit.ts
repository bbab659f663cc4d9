import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface AuditEntry {
  id: number;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  createdAt: string;
}

export function createAuditRepository(db: Kysely<Database>) {
  return {
    async record(entry: Omit<AuditEntry, 'id' | 'createdAt'>): Promise<void> {
      await db
        .insertInto('audit_log')
        .values({ ...entry, details: JSON.stringify(entry.details) })
        .execute();
    },

    async list(limit: number): Promise<AuditEntry[]> {
      const rows = await db
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        actor: row.actor,
        action: row.action,
        target: row.target,
        details: row.details,
        createdAt: row.created_at.toISOString(),
      }));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
