import type { FastifyInstance } from 'fastify';
import { MANIFEST_FILE, RELEASE_VERSION, REMOTE_NAME, ROUTES_FILE } from '../releases/build';
import {
  CACHE_IMMUTABLE,
  CACHE_NO_CACHE,
  pathSegments,
  sendFileNotFound,
  sendStored,
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

/**
 * `/remotes/<name>/<version>/<file>` from the release store (`app.stores.releases`: the same
 * for every API process, so any of them serves a release made through another).
 */
export default async function remoteFileRoutes(app: FastifyInstance) {
  app.get('/remotes/*', { schema: { hide: true } }, async (request, reply) => {
    const segments = pathSegments(request.url, '/remotes/');
    if (!segments || segments.length < 3) return sendFileNotFound(reply);
    const [remote = '', version = ''] = segments;
    if (!REMOTE_NAME.test(remote) || !RELEASE_VERSION.test(version)) {
      return sendFileNotFound(reply);
    }
    // The segments passed pathSegments (no empty, dot or slash segment), so they are a key.
    const key = segments.join('/');
    const entry = segments.length === 3 && ENTRY_FILES.has(segments[2] ?? '');
    // A missing key answers the plain 404 there.
    return sendStored(
      request,
      reply,
      app.stores.releases,
      key,
      entry ? CACHE_NO_CACHE : CACHE_IMMUTABLE,
      { precompressed: true },
    );
  });
}
