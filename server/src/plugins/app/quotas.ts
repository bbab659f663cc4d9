import fp from 'fastify-plugin';
import { createQuotaService, type QuotaService } from '../../repositories/quotas';

declare module 'fastify' {
  interface FastifyInstance {
    /** Check-and-spend and refund of generation counts; see repositories/quotas.ts. */
    quotaService: QuotaService;
  }
}

export default fp(
  async (app) => {
    app.decorate('quotaService', createQuotaService(app.db));
  },
  { name: 'quotas', dependencies: ['database'] },
);
