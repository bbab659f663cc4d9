import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

/** For load balancers and `pnpm start` checks: 200 when the database answers, else 503. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/healthz',
    {
      schema: {
        summary: '健康检查',
        tags: ['ops'],
        response: {
          200: Type.Object({ status: Type.Literal('ok') }),
          503: Type.Object({ status: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      try {
        await app.pingDatabase();
        return { status: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database does not answer');
        return reply.code(503).send({ status: 'database unavailable' });
      }
    },
  );
}
