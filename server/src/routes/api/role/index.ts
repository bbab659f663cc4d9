import type { FastifyInstance } from 'fastify';
import { roleEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, notFound, staleRevision } from '../../../http/api-error';
import { roleOf } from '../../../repositories/roles';
import { extractRoles } from '../../../roles/extract';
import {
  checkRoleFields,
  genderOfNewRole,
  newSeed,
  ownRole,
  ownRoleTask,
  ROLE_TASK_TYPES,
  saveRole,
  withGenders,
} from '../../../roles/service';
import { defineRoute } from '../../define-route';
import { requestSignal } from '../../../http/request-signal';

/** Extraction through a model may take a while; past this the page is better told. */
const EXTRACT_TIMEOUT_MS = 120_000;

/**
 * Roles (spec section 7): a role task groups the roles of one video project; each role keeps a
 * fixed description, reference picture and seed used in every picture of it.
 */
export default async function roleRoutes(app: FastifyInstance) {
  defineRoute(app, roleEndpoints.initTask, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (!ROLE_TASK_TYPES.has(body.type)) throw badRequest('该视频类型没有角色');
    let workId: number | null = null;
    if (body.workId !== undefined) {
      const work = await app.works.find(user.id, body.workId);
      if (!work) throw notFound('「作品」不存在或不属于你');
      if (work.type !== body.type) throw badRequest('作品的视频类型与任务类型不一致');
      workId = work.workId;
    }
    return { taskId: await app.roles.createTask(user.id, { type: body.type, workId }) };
  });

  defineRoute(app, roleEndpoints.getRoles, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await ownRoleTask(app, user.id, query.taskId);
    return (await app.roles.listOfTask(user.id, query.taskId)).map(roleOf);
  });

  defineRoute(app, roleEndpoints.addRole, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (body.taskId !== undefined) await ownRoleTask(app, user.id, body.taskId);
    await checkRoleFields(app, user.id, body);
    const role = await saveRole(body.name, body.taskId === undefined, () =>
      app.roles.add(user.id, {
        taskId: body.taskId ?? null,
        name: body.name,
        description: body.description,
        ...(body.referenceImageUrl !== undefined
          ? { referenceImageUrl: body.referenceImageUrl }
          : {}),
        loraId: body.loraId ?? null,
        // A role of a task is of the task's type; a library role keeps the kind it is given.
        ...(body.taskId === undefined ? { type: body.type ?? null } : {}),
        gender:
          body.gender !== undefined ? body.gender : genderOfNewRole(body.name, body.description),
        seed: newSeed(),
      }),
    );
    return roleOf(role);
  });

  defineRoute(app, roleEndpoints.updateRole, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const current = await ownRole(app, user.id, body.roleId);
    await checkRoleFields(app, user.id, body);
    const { roleId, revision, ...patch } = body;
    const role = await saveRole(body.name ?? '', current.taskId === null, () =>
      app.roles.update(user.id, roleId, revision, patch),
    );
    if (!role) throw notFound('「角色」不存在或不属于你');
    if (role === 'stale') throw staleRevision('该角色');
    return roleOf(role);
  });

  defineRoute(
    app,
    roleEndpoints.deleteRole,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      if (!(await app.roles.delete(user.id, query.roleId))) {
        throw notFound('「角色」不存在或不属于你');
      }
      return null;
    },
    // A GET that deletes: it needs the platform header like any state-changing call.
    { stateChanging: true },
  );

  defineRoute(app, roleEndpoints.extractRoles, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await ownRoleTask(app, user.id, body.taskId);
    const found = await extractRoles(
      body.text,
      app.providers.chat,
      requestSignal(request, EXTRACT_TIMEOUT_MS),
    );
    // A role the task already has keeps what the user made of it.
    await app.roles.addMissing(
      user.id,
      body.taskId,
      withGenders(body.text, found.roles).map((role) => ({ ...role, seed: newSeed() })),
    );
    const byName = new Map(
      (await app.roles.listOfTask(user.id, body.taskId)).map((role) => [role.name, role]),
    );
    const roles = found.roles.flatMap((role) => {
      const stored = byName.get(role.name);
      return stored ? [roleOf(stored)] : [];
    });
    return { roles, engine: found.engine };
  });

  defineRoute(app, roleEndpoints.reGenImg, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const role = await ownRole(app, user.id, body.roleId);
    return app.videoTasks.startTask({
      userId: user.id,
      workId: role.workId,
      // Image tasks run for any type; a library role (no task) draws as a comic's.
      type: role.type ?? 0,
      kind: 'image',
      input: { roleId: role.roleId, prompt: body.prompt ?? '' },
    });
  });
}
