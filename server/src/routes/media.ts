import type { FastifyInstance } from 'fastify';
import { pathSegments, sendFileNotFound, sendStored } from '../http/static-files';

/** Generated media are one user's: never kept by a shared cache, revalidated by the browser. */
const CACHE_PRIVATE = 'private, no-cache';

/**
 * `/media/<userId>/...`: generated videos, subtitles, covers and voice tries, for their owner
 * only. Another user (or a path outside a user folder, such as the music library) gets the
 * same 404 as a missing file, so ids of other users' files cannot be probed. The owner is
 * checked here, then the file is streamed from the media store (a folder or the bucket).
 */
export default async function mediaFileRoutes(app: FastifyInstance) {
  app.get('/media/*', { schema: { hide: true } }, async (request, reply) => {
    const user = await app.auth.requireUser(request, reply);
    const segments = pathSegments(request.url, '/media/');
    if (!segments || segments.length < 2 || segments[0] !== String(user.id)) {
      return sendFileNotFound(reply);
    }
    const key = segments.join('/');
    // Files being written carry a `.part` name until renamed whole: never served.
    if (/\.part(-|$)/.test(key)) return sendFileNotFound(reply);
    return sendStored(request, reply, app.stores.media, key, CACHE_PRIVATE);
  });
}
