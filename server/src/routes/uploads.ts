import type { FastifyInstance } from 'fastify';
import {
  CACHE_IMMUTABLE,
  pathSegments,
  resolveInside,
  sendFile,
  sendFileNotFound,
} from '../http/static-files';
import { STORED_UPLOAD_NAME } from '../uploads/images';

/** `/uploads/<name>`: a stored name is random and never reused, so it is cached for good. */
export default async function uploadFileRoutes(app: FastifyInstance) {
  app.get('/uploads/*', { schema: { hide: true } }, async (request, reply) => {
    const segments = pathSegments(request.url, '/uploads/');
    if (!segments || segments.length !== 1 || !STORED_UPLOAD_NAME.test(segments[0] ?? '')) {
      return sendFileNotFound(reply);
    }
    const file = await resolveInside(app.config.uploadsDir, segments);
    if (!file) return sendFileNotFound(reply);
    return sendFile(request, reply, file, CACHE_IMMUTABLE);
  });
}
