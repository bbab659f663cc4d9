import fp from 'fastify-plugin';
import { storeCopiesDir, storesFrom, type MediaStores } from '../../storage';
import { meteredStores } from '../../ops/metered';
import { startCopiesSweep } from '../../storage/cache-sweep';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploads, generated media and releases are kept (src/storage). */
    stores: MediaStores;
  }
}

/** The media stores of the configuration, checked before the server answers anything. */
export default fp(
  async (app) => {
    const stores = meteredStores(await storesFrom(app.config), app.metrics);
    await Promise.all(Object.values(stores).map((store) => store.open()));
    app.log.info(
      {
        media: stores.media.description,
        uploads: stores.uploads.description,
        releases: stores.releases.description,
      },
      'media store',
    );
    app.decorate('stores', stores);
    if (app.config.mediaStore) {
      const stop = startCopiesSweep(storeCopiesDir(app.config), (error) =>
        app.log.warn({ err: error }, 'sweeping the media store copies failed'),
      );
      app.addHook('onClose', async () => stop());
    }
  },
  { name: 'storage', dependencies: ['ops'] },
);
