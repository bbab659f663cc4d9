import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/** The OpenAPI document, built from the same contract schemas that validate, at /api/docs. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'KOL Studio API',
        description: '每个 /api 接口都返回 { code, msg, data }；code 为 0 表示成功。',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: '管理令牌（DATA_DIR/admin-token）',
          },
          session: { type: 'apiKey', in: 'cookie', name: 'kol_session' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
