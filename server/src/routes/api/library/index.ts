import type { FastifyInstance } from 'fastify';
import { roleEndpoints } from '@kol/shared-sdk/contracts';
import { roleOf } from '../../../repositories/roles';
import { ownRole, ownRoleTask, saveRole } from '../../../roles/service';
import { defineRoute } from '../../define-route';

/** The role library: a role of any earlier task of the user, copied into another task. */
export default async function libraryRoutes(app: FastifyInstance) {
  defineRoute(app, roleEndpoints.addRoleToTask, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const role = await ownRole(app, user.id, body.roleId);
    await ownRoleTask(app, user.id, body.taskId);
    // A copy, so editing it in this task leaves the original as it was; the seed and
    // pictures come along, so the role looks the same in both.
    const copy = await saveRole(role.name, () => app.roles.copyToTask(user.id, role, body.taskId));
    return roleOf(copy);
  });
}
