import type { FastifyInstance } from 'fastify';
import { roleEndpoints } from '@kol/shared-sdk/contracts';
import { loraList } from '../../../video/library/image-styles';
import { defineRoute } from '../../define-route';

/** get_loras: the built-in image styles (the ids `imageStyleId` and a role's `loraId` take). */
export default async function loraRoutes(app: FastifyInstance) {
  defineRoute(app, roleEndpoints.getLoras, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return loraList();
  });
}
