import type { FastifyInstance } from 'fastify';
import { MANIFEST_FILE, RELEASE_VERSION, REMOTE_NAME, ROUTES_FILE } from '../releases/build';
import {
  CACHE_IMMUTABLE,
  CACHE_NO_CACHE,
  pathSegments,
  resolveInside,
  sendFile,
  sendFileNotFound,
} from '../http/static-files';

/**
 * Files a browser must fetch fresh: they name the chunks, so they are the only files of a
 * release that can point at something else. Everything else in a release is addressed by
 * its hash and never changes.
 */
const ENTRY_FILES: ReadonlySet<string> = new Set([
  'remoteEntry.js',
  MANIFEST_FILE,
  ROUTES_FILE,
  'mf-stats.json',
]);

/** `/remotes/<name>/<version>/<file>` from the release store. */
export default async function remoteFileRoutes(app: FastifyInstance) {
  app.get('/remotes/*', { schema: { hide: true } }, async (request, reply) => {
    const segments = pathSegments(request.url, '/remotes/');
    if (!segments || segments.length < 3) return sendFileNotFound(reply);
    const [remote = '', version = ''] = segments;
    if (!REMOTE_NAME.test(remote) || !RELEASE_VERSION.test(version)) {
      return sendFileNotFound(reply);
    }
    const file = await resolveInside(app.config.releasesDir, segments);
    if (!file) return sendFileNotFound(reply);
    const entry = segments.length === 3 && ENTRY_FILES.has(segments[2] ?? '');
    return sendFile(request, reply, file, entry ? CACHE_NO_CACHE : CACHE_IMMUTABLE, {
      precompressed: true,
    });
  });
}
