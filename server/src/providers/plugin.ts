import fp from 'fastify-plugin';
import { providersFrom, type Providers } from './index';

declare module 'fastify' {
  interface FastifyInstance {
    /** The outside services of this installation (src/providers), null where not configured. */
    providers: Providers;
  }
}

export default fp(
  async (app) => {
    app.decorate('providers', providersFrom(app.config, app.metrics));
  },
  { name: 'providers', dependencies: ['ops'] },
);
