import type { FastifyInstance } from 'fastify';
import { pathSegments, resolveInside, sendFile, sendFileNotFound } from '../http/static-files';

/** Generated media are one user's: never kept by a shared cache, revalidated by the browser. */
const CACHE_PRIVATE = 'private, no-cache';

/**
 * `/media/<userId>/...`: generated videos, subtitles, covers and voice tries, for their owner
 * only. Another user (or a path outside a user folder, such as the music library) gets the
 * same 404 as a missing file, so ids of other users' files cannot be probed.
 */
export default async function mediaFileRoutes(app: FastifyInstance) {
  app.get('/media/*', { schema: { hide: true } }, async (request, reply) => {
    const user = await app.auth.requireUser(request, reply);
    const segments = pathSegments(request.url, '/media/');
    if (!segments || segments.length < 2 || segments[0] !== String(user.id)) {
      return sendFileNotFound(reply);
    }
    const file = await resolveInside(app.config.mediaDir, segments);
    // Files being written carry a `.part` name until renamed whole: never served.
    if (!file || /\.part(-|$)/.test(file)) return sendFileNotFound(reply);
    return sendFile(request, reply, file, CACHE_PRIVATE);
  });
}
