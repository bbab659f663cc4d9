import fp from 'fastify-plugin';
import { storesFrom, type MediaStores } from '../../storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploads, generated media and releases are kept (src/storage). */
    stores: MediaStores;
  }
}

/** The media stores of the configuration, checked before the server answers anything. */
export default fp(
  async (app) => {
    const stores = storesFrom(app.config);
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
  },
  { name: 'storage' },
);
