import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { BodyOf, DataOf, EndpointDef, QueryOf } from '@kol/shared-sdk/contracts';

export interface RouteContext<E extends EndpointDef> {
  body: BodyOf<E>;
  query: QueryOf<E>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteOptions {
  /** Needs the `platform` header. Defaults to true for POST; set it for GETs that change state. */
  stateChanging?: boolean;
  /** OpenAPI security requirement names (see plugins/external/swagger.ts). */
  security?: Array<'session' | 'adminToken'>;
}

/**
 * Registers a route from its shared-sdk contract: method, path, validation and the OpenAPI
 * entry all come from the one declaration. The handler answers the `data`; this wraps it in
 * the success envelope, and fast-json-stringify serialises it by the contract's schema (which
 * also drops any field the contract does not name).
 */
export function defineRoute<E extends EndpointDef>(
  app: FastifyInstance,
  def: E,
  handler: (context: RouteContext<E>) => Promise<DataOf<E>>,
  options: RouteOptions = {},
): void {
  app.route({
    method: def.method,
    url: def.path,
    schema: {
      summary: def.summary,
      tags: [def.path.split('/')[2] ?? 'api'],
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(options.security ? { security: options.security.map((name) => ({ [name]: [] })) } : {}),
      response: {
        200: Type.Object({ code: Type.Literal(0), msg: Type.String(), data: def.response }),
      },
    },
    config: { stateChanging: options.stateChanging ?? def.method === 'POST' },
    handler: async (request, reply) => {
      // The casts are safe: Fastify has validated body and query against these very schemas.
      const data = await handler({
        body: request.body as BodyOf<E>,
        query: request.query as QueryOf<E>,
        request,
        reply,
      });
      return { code: 0, msg: '成功', data };
    },
  });
}
