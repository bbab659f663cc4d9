import type { FastifyInstance } from 'fastify';
import { roleEndpoints } from '@kol/shared-sdk/contracts';
import { roleOf } from '../../../repositories/roles';
import { ownRole, ownRoleTask, saveRole } from '../../../roles/service';
import { defineRoute } from '../../define-route';

/**
 * The role library: My roles (roles of no task), and any role of the user's copied into a task.
 */
export default async function libraryRoutes(app: FastifyInstance) {
  // My roles: the roles that belong to no task, only the caller's (every query is by owner).
  defineRoute(app, roleEndpoints.libraryRoles, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const page = await app.roles.listLibrary(user.id, {
      ...(query.type !== undefined ? { type: query.type } : {}),
      ...(query.keyword !== undefined ? { keyword: query.keyword } : {}),
      pageIndex: query.pageIndex ?? 1,
      pageSize: query.pageSize ?? 20,
    });
    return { items: page.items.map(roleOf), total: page.total };
  });

  defineRoute(app, roleEndpoints.addRoleToTask, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const role = await ownRole(app, user.id, body.roleId);
    await ownRoleTask(app, user.id, body.taskId);
    // A copy, so editing it in this task leaves the original as it was; the seed and
    // pictures come along, so the role looks the same in both.
    const copy = await saveRole(role.name, false, () =>
      app.roles.copyToTask(user.id, role, body.taskId),
    );
    return roleOf(copy);
  });
}
