import path from 'node:path';
import fp from 'fastify-plugin';
import { HOST_NAME, MANIFEST_FILE } from '../../releases/build';
import { ReleaseService } from '../../releases/service';
import { localManifest, sharedVersionCheck } from '../../releases/shared-check';
import { ReleaseStore } from '../../releases/store';

declare module 'fastify' {
  interface FastifyInstance {
    releases: ReleaseService;
  }
}

/**
 * The release service, and at start the release of the host build and of every remote build
 * in the workspace that is not released yet (AUTO_PUBLISH_REMOTES), before the server answers
 * its first request. Every remote release, auto-published or not, must fit the host this
 * server serves; every host release must fit the remotes that run.
 */
export default fp(
  async (app) => {
    const service: ReleaseService = new ReleaseService(
      app.releaseRecords,
      new ReleaseStore(app.stores.releases),
      app.log,
      [sharedVersionCheck(() => hostManifest())],
      app.audit,
      app.config.remoteAutoRollback,
      app.metrics,
    );
    // The manifest of the host browsers get: the active host release's (through the store,
    // as every process sees it), or the host build's on this machine before any.
    const hostManifest = async () => {
      const version = await service.hostVersion();
      return version === null
        ? localManifest(path.join(app.config.hostDistDir, MANIFEST_FILE))
        : service.manifest(HOST_NAME, version);
    };
    app.decorate('releases', service);
    if (app.config.autoPublishFrom) {
      // The host first: the remotes released after it are checked against it.
      await service.autoPublishHost(app.config.hostDistDir);
      await service.autoPublish(app.config.autoPublishFrom);
    }
  },
  { name: 'releases', dependencies: ['repositories', 'storage', 'ops'] },
);
