import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Role, RoleGender } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';
import { containsPattern } from '../db/like';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A role task: the roles of one video project (init_task), not a runner task. */
export interface RoleTask {
  taskId: string;
  type: number;
  workId: number | null;
}

/** A role with where it belongs (the contract's Role plus its task's work and type). */
export interface RoleRecord extends Role {
  workId: number | null;
}

export interface NewRole {
  taskId: string | null;
  name: string;
  description: string;
  referenceImageUrl?: string;
  imageUrls?: string[];
  seed: number;
  loraId?: number | null;
  /** A library role's kind (ignored for a role of a task, which takes its task's type). */
  type?: number | null;
  gender?: RoleGender;
}

const ROLE_COLUMNS = [
  'roles.id',
  'roles.task_id',
  'roles.name',
  'roles.description',
  'roles.reference_image_url',
  'roles.image_urls',
  'roles.seed',
  'roles.lora_id',
  'roles.gender',
  'roles.revision',
  'role_tasks.work_id',
  // A role of a task is of its task's type; a library role of the kind it was given.
  sql<number | null>`coalesce(role_tasks.type, roles.type)`.as('type'),
] as const;

interface RoleRow {
  id: number;
  task_id: string | null;
  name: string;
  description: string;
  reference_image_url: string;
  image_urls: string[];
  seed: number;
  lora_id: number | null;
  gender: string | null;
  revision: number;
  work_id: number | null;
  type: number | null;
}

function record(row: RoleRow): RoleRecord {
  return {
    roleId: row.id,
    taskId: row.task_id,
    name: row.name,
    description: row.description,
    referenceImageUrl: row.reference_image_url,
    imageUrls: row.image_urls,
    seed: row.seed,
    loraId: row.lora_id,
    workId: row.work_id,
    type: row.type,
    gender: row.gender === 'female' || row.gender === 'male' ? row.gender : null,
    revision: row.revision,
  };
}

/** The contract's Role of a record (the API answers only these fields). */
export const roleOf = (role: RoleRecord): Role => ({
  roleId: role.roleId,
  taskId: role.taskId,
  name: role.name,
  description: role.description,
  referenceImageUrl: role.referenceImageUrl,
  imageUrls: role.imageUrls,
  seed: role.seed,
  loraId: role.loraId,
  type: role.type,
  gender: role.gender,
  revision: role.revision,
});

export const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/** Roles and role tasks of one user: every call is scoped by owner. */
export function createRolesRepository(db: Kysely<Database>) {
  const selectRoles = (userId: number) =>
    db
      .selectFrom('roles')
      .leftJoin('role_tasks', 'role_tasks.id', 'roles.task_id')
      .select(ROLE_COLUMNS)
      .where('roles.user_id', '=', userId);

  async function findRole(userId: number, roleId: number): Promise<RoleRecord | null> {
    const row = await selectRoles(userId).where('roles.id', '=', roleId).executeTakeFirst();
    return row ? record(row) : null;
  }

  /** Inserts a role; a name already in the task throws a unique violation (23505). */
  async function add(userId: number, role: NewRole): Promise<RoleRecord> {
    const row = await db
      .insertInto('roles')
      .values({
        user_id: userId,
        task_id: role.taskId,
        name: role.name,
        description: role.description,
        reference_image_url: role.referenceImageUrl ?? '',
        image_urls: JSON.stringify(role.imageUrls ?? []),
        seed: role.seed,
        lora_id: role.loraId ?? null,
        type: role.taskId === null ? (role.type ?? null) : null,
        gender: role.gender ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const added = await findRole(userId, row.id);
    if (!added) throw new Error(`role ${row.id} vanished after insert`);
    return added;
  }

  return {
    findRole,
    add,

    /** A new role task; one of a work is answered again rather than duplicated. */
    async createTask(userId: number, task: { type: number; workId: number | null }) {
      if (task.workId !== null) {
        const existing = await db
          .selectFrom('role_tasks')
          .select('id')
          .where('user_id', '=', userId)
          .where('work_id', '=', task.workId)
          .orderBy('created_at')
          .executeTakeFirst();
        if (existing) return existing.id;
      }
      const id = randomUUID();
      await db
        .insertInto('role_tasks')
        .values({ id, user_id: userId, type: task.type, work_id: task.workId })
        .execute();
      return id;
    },

    async findTask(userId: number, taskId: string): Promise<RoleTask | null> {
      // A task id from a query string: not a uuid is simply not a task (no SQL error).
      if (!UUID.test(taskId)) return null;
      const row = await db
        .selectFrom('role_tasks')
        .select(['id', 'type', 'work_id'])
        .where('id', '=', taskId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? { taskId: row.id, type: row.type, workId: row.work_id } : null;
    },

    /** The library (roles of no task), newest change first, by kind and a part of the name. */
    async listLibrary(
      userId: number,
      filter: { type?: number; keyword?: string; pageIndex: number; pageSize: number },
    ): Promise<{ items: RoleRecord[]; total: number }> {
      let query = db
        .selectFrom('roles')
        .where('roles.user_id', '=', userId)
        .where('roles.task_id', 'is', null);
      if (filter.type !== undefined) query = query.where('roles.type', '=', filter.type);
      const keyword = filter.keyword?.trim();
      if (keyword) {
        const pattern = containsPattern(keyword);
        query = query.where('roles.name', 'ilike', pattern);
      }
      const [rows, count] = await Promise.all([
        query
          .leftJoin('role_tasks', 'role_tasks.id', 'roles.task_id')
          .select(ROLE_COLUMNS)
          .orderBy('roles.updated_at', 'desc')
          .orderBy('roles.id', 'desc')
          .limit(filter.pageSize)
          .offset((filter.pageIndex - 1) * filter.pageSize)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(record), total: count.total };
    },

    async listOfTask(userId: number, taskId: string): Promise<RoleRecord[]> {
      const rows = await selectRoles(userId)
        .where('roles.task_id', '=', taskId)
        .orderBy('roles.id')
        .execute();
      return rows.map(record);
    },

    /** The roles a work's pictures use: those of the role tasks made for the work. */
    async listOfWork(userId: number, workId: number): Promise<RoleRecord[]> {
      const rows = await selectRoles(userId)
        .where('role_tasks.work_id', '=', workId)
        .orderBy('roles.id')
        .execute();
      return rows.map(record);
    },

    /** Adds the roles whose names the task does not have yet (two extractions may race). */
    async addMissing(
      userId: number,
      taskId: string,
      roles: Array<{ name: string; description: string; seed: number; gender: RoleGender }>,
    ): Promise<void> {
      if (roles.length === 0) return;
      await db
        .insertInto('roles')
        .values(
          roles.map((role) => ({
            user_id: userId,
            task_id: taskId,
            name: role.name,
            description: role.description,
            seed: role.seed,
            gender: role.gender,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['task_id', 'name']).where('task_id', 'is not', null).doNothing(),
        )
        .execute();
    },

    /** A copy of a role in another task (add_role_to_task): same look, seed and pictures. */
    async copyToTask(userId: number, role: RoleRecord, taskId: string): Promise<RoleRecord> {
      return add(userId, {
        taskId,
        name: role.name,
        description: role.description,
        referenceImageUrl: role.referenceImageUrl,
        imageUrls: role.imageUrls,
        seed: role.seed,
        loraId: role.loraId,
        gender: role.gender,
      });
    },

    /**
     * A person's edit, based on the revision their page loaded: 'stale' when the role changed
     * since (another tab, a portrait drawn). Null when the role does not exist or is not the
     * user's; a taken name throws 23505.
     */
    async update(
      userId: number,
      roleId: number,
      revision: number,
      patch: {
        name?: string;
        description?: string;
        referenceImageUrl?: string;
        loraId?: number;
        /** Only a library role keeps a kind of its own (see add). */
        type?: number;
        /** Null: 未知. */
        gender?: RoleGender;
      },
    ): Promise<RoleRecord | 'stale' | null> {
      const result = await db
        .updateTable('roles')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.referenceImageUrl !== undefined
            ? { reference_image_url: patch.referenceImageUrl }
            : {}),
          ...(patch.loraId !== undefined ? { lora_id: patch.loraId } : {}),
          ...(patch.gender !== undefined ? { gender: patch.gender } : {}),
          ...(patch.type !== undefined
            ? { type: sql<number | null>`CASE WHEN task_id IS NULL THEN ${patch.type}::int END` }
            : {}),
          revision: sql<number>`revision + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', roleId)
        .where('user_id', '=', userId)
        .where('revision', '=', revision)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) return findRole(userId, roleId);
      return (await findRole(userId, roleId)) ? 'stale' : null;
    },

    async delete(userId: number, roleId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('roles')
        .where('id', '=', roleId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * A new portrait of the role, appended to its pictures; the first one also becomes its
     * reference picture (the one every later picture of the role is drawn from).
     */
    async appendImage(userId: number, roleId: number, url: string): Promise<RoleRecord | null> {
      const result = await db
        .updateTable('roles')
        .set({
          image_urls: sql`image_urls || ${JSON.stringify([url])}::jsonb`,
          reference_image_url: sql`CASE WHEN reference_image_url = '' THEN ${url} ELSE reference_image_url END`,
          revision: sql<number>`revision + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', roleId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n ? findRole(userId, roleId) : null;
    },
  };
}

export type RolesRepository = ReturnType<typeof createRolesRepository>;
