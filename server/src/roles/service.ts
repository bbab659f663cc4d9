import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ProjectType, type RoleGender } from '@kol/shared-sdk/contracts';
import { badRequest, conflict, notFound } from '../http/api-error';
import { imageStyleOf } from '../video/library/image-styles';
import { isUniqueViolation, type RoleRecord, type RoleTask } from '../repositories/roles';
import { pictureStored } from '../uploads/picture-file';
import { describedGender, inferGender } from '../text/gender';

/** The video types whose pictures have roles: comics, anime shorts, real-person drama. */
export const ROLE_TASK_TYPES: ReadonlySet<number> = new Set([
  ProjectType.comics,
  ProjectType.comicsOverseas,
  ProjectType.realOpera,
  ProjectType.animeShorts,
]);

/** The caller's role task, or 404 (another user's is "not found" too: nothing leaks). */
export async function ownRoleTask(
  app: FastifyInstance,
  userId: number,
  taskId: string,
): Promise<RoleTask> {
  const task = await app.roles.findTask(userId, taskId);
  if (!task) throw notFound('「角色任务」不存在或不属于你');
  return task;
}

export async function ownRole(
  app: FastifyInstance,
  userId: number,
  roleId: number,
): Promise<RoleRecord> {
  const role = await app.roles.findRole(userId, roleId);
  if (!role) throw notFound('「角色」不存在或不属于你');
  return role;
}

/**
 * The fields of a role the contract cannot check: a style that exists, and a reference
 * picture that is the user's own (a generated picture of theirs or one of their uploads).
 */
export async function checkRoleFields(
  app: FastifyInstance,
  userId: number,
  fields: { loraId?: number; referenceImageUrl?: string },
): Promise<void> {
  if (fields.loraId !== undefined && !imageStyleOf(fields.loraId)) {
    throw badRequest('「画风模型」不存在');
  }
  const url = fields.referenceImageUrl?.trim();
  if (!url) return;
  const uploaded = url.startsWith('/uploads/')
    ? await app.uploads.findOwnedByUrl(userId, url)
    : null;
  const stored = await pictureStored(url, userId, {
    stores: { media: app.stores.media, ...(uploaded ? { uploads: app.stores.uploads } : {}) },
  });
  if (!stored) throw badRequest('「参考图」不存在或不属于你');
}

/**
 * Runs a role insert or update, answering 409 when the task (or, for a role of no task, the
 * user's library) already has a role of the name.
 */
export async function saveRole<T>(
  name: string,
  inLibrary: boolean,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`角色「${name}」已在${inLibrary ? '我的角色' : '这个任务'}中`);
    throw error;
  }
}

/** A role's seed, fixed at creation: the role draws with it in every picture. */
export const newSeed = (): number => randomInt(1, 2 ** 31 - 1);

/** A role as extraction finds it: a chat model or the local engine may say its gender. */
export interface FoundRole {
  name: string;
  description: string;
  gender?: RoleGender | undefined;
}

/**
 * The roles found in a text, each with a gender: the one extraction gave, else what the text
 * says of the person (the other roles found tell whose pronoun is whose), else what its
 * description says (a model's look starts with it). Null when none says.
 */
export function withGenders<T extends FoundRole>(
  text: string,
  roles: T[],
): Array<T & { gender: RoleGender }> {
  const names = roles.map((role) => role.name);
  return roles.map((role) => ({
    ...role,
    gender:
      role.gender ??
      inferGender(
        text,
        role.name,
        [],
        names.filter((name) => name !== role.name),
      ) ??
      describedGender(role.description),
  }));
}

/** A role added by hand without a gender: what its description or its name says. */
export const genderOfNewRole = (name: string, description: string): RoleGender =>
  describedGender(description) ?? inferGender(description, name);
