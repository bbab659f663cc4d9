import fp from 'fastify-plugin';
import type { QuotaService } from '../../repositories/quotas';

declare module 'fastify' {
  interface FastifyInstance {
    /** Check-and-spend and refund of generation counts; see repositories/quotas.ts. */
    quotaService: QuotaService;
  }
}

export default fp(
  async (app) => {
    app.decorate('quotaService', app.repos.quotas);
  },
  { name: 'quotas', dependencies: ['repositories'] },
);
