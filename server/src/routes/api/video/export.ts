import type { FastifyInstance } from 'fastify';
import {
  EXPORT_PROJECT_PATH,
  ExportProjectQuery,
  type ExportProjectQuery as Query,
} from '@kol/shared-sdk/contracts';

/**
 * 导出剪映草稿 and 导出工程: a finished video as a ZIP an editor opens (outside the JSON
 * envelope; a refusal answers the usual JSON error before anything is streamed). Owner only.
 */
export default async function videoExportRoutes(app: FastifyInstance) {
  app.get(
    EXPORT_PROJECT_PATH,
    {
      onRequest: app.auth.requireSession,
      schema: {
        summary: '导出剪映草稿（format=jianying）或 MLT 工程（format=mlt）：ZIP，不是 JSON 信封',
        tags: ['video'],
        querystring: ExportProjectQuery,
        security: [{ session: [] }],
      },
    },
    async (request, reply) => {
      const user = await app.auth.requireUser(request, reply);
      await app.projectExports.stream(user.id, request.query as Query, reply);
    },
  );
}
