import type { FastifyInstance } from 'fastify';
import { roleEndpoints } from '@kol/shared-sdk/contracts';
import { imageEngines } from '../../../video/pipelines/kit/draw';
import { defineRoute } from '../../define-route';

/** version_list: the image engines of this installation, the one that draws first. */
export default async function versionRoutes(app: FastifyInstance) {
  defineRoute(app, roleEndpoints.versionList, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return imageEngines(app.providers.images);
  });
}
