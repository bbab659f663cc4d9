import fp from 'fastify-plugin';
import { seedDemoData } from '../../db/seed';

declare module 'fastify' {
  interface FastifyInstance {
    /** True when this start filled an empty database with the demo data. */
    seededDemoNow: boolean;
  }
}

export default fp(
  async (app) => {
    const seeded = app.config.seedDemo ? await seedDemoData(app.db) : false;
    if (seeded) app.log.info('demo account, quotas and notices created');
    app.decorate('seededDemoNow', seeded);
  },
  { name: 'seed', dependencies: ['database'] },
);
