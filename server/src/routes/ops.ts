import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

/**
 * What ops scrape and probe on the API's own port: /metrics (the admin token; a separate
 * listener without one: ops/ops-server.ts) and /readyz (anyone: a balancer's probe). /healthz,
 * the liveness check, is routes/healthz.ts.
 */
export default async function opsRoutes(app: FastifyInstance) {
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus 指标（文本格式，需要管理令牌）',
        tags: ['ops'],
        security: [{ adminToken: [] }],
      },
    },
    async (request, reply) => {
      await app.auth.requireAdmin(request);
      return reply.type(app.metrics.contentType).send(await app.metrics.text());
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: '就绪检查：启动中、排空中或依赖（数据库、存储）不可用时为 503',
        tags: ['ops'],
        response: {
          200: Type.Object({ status: Type.Literal('ready') }),
          503: Type.Object({ status: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      const answer = await app.readiness.answer();
      return reply.code(answer.ready ? 200 : 503).send({ status: answer.status });
    },
  );
}
