import path from 'node:path';
import fp from 'fastify-plugin';
import { MANIFEST_FILE } from '../../releases/build';
import { ReleaseService } from '../../releases/service';
import { sharedVersionCheck } from '../../releases/shared-check';
import { ReleaseStore } from '../../releases/store';

declare module 'fastify' {
  interface FastifyInstance {
    releases: ReleaseService;
  }
}

/**
 * The release service, and at start the release of every remote build in the workspace that
 * is not released yet (AUTO_PUBLISH_REMOTES), before the server answers its first request.
 * Every release, auto-published or not, must fit the host build this server serves.
 */
export default fp(
  async (app) => {
    const service = new ReleaseService(
      app.releaseRecords,
      new ReleaseStore(app.config.releasesDir),
      app.log,
      [sharedVersionCheck(() => path.join(app.config.hostDistDir, MANIFEST_FILE))],
      app.audit,
      app.config.remoteAutoRollback,
    );
    app.decorate('releases', service);
    if (app.config.autoPublishFrom) await service.autoPublish(app.config.autoPublishFrom);
  },
  { name: 'releases', dependencies: ['repositories'] },
);
