import type { FastifyInstance } from 'fastify';
import { CACHE_IMMUTABLE, pathSegments, sendFileNotFound, sendStored } from '../http/static-files';
import { STORED_UPLOAD_NAME } from '../uploads/images';

/**
 * `/uploads/<name>`: a stored name is random and never reused, so it is cached for good. Served
 * from the uploads store (a folder, or the bucket every API process shares).
 */
export default async function uploadFileRoutes(app: FastifyInstance) {
  app.get('/uploads/*', { schema: { hide: true } }, async (request, reply) => {
    const segments = pathSegments(request.url, '/uploads/');
    const name = segments?.length === 1 ? segments[0] : undefined;
    if (!name || !STORED_UPLOAD_NAME.test(name)) return sendFileNotFound(reply);
    return sendStored(request, reply, app.stores.uploads, name, CACHE_IMMUTABLE);
  });
}
