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
  /**
   * OpenAPI security requirement names (see plugins/external/swagger.ts), added to the one the
   * contract's `access` implies.
   */
  security?: Array<'session' | 'adminToken'>;
}

/** The OpenAPI security requirement of a contract's `access` (see EndpointDef). */
function securityOf(def: EndpointDef): 'session' | 'adminToken' | null {
  if (def.access === 'public') return null;
  return def.access === 'admin' ? 'adminToken' : 'session';
}

/**
 * Registers a route from its shared-sdk contract: method, path, validation, who may call it and
 * the OpenAPI entry all come from the one declaration. The handler answers the `data`; this
 * wraps it in the success envelope, and fast-json-stringify serialises it by the contract's
 * schema (which also drops any field the contract does not name).
 *
 * Who may call is checked in `onRequest`, before the body is read and the input validated: a
 * caller without a session (or admin token) gets 401 whatever input it sent.
 */
export function defineRoute<E extends EndpointDef>(
  app: FastifyInstance,
  def: E,
  handler: (context: RouteContext<E>) => Promise<DataOf<E>>,
  options: RouteOptions = {},
): void {
  const required = securityOf(def);
  const security = [...new Set([...(required ? [required] : []), ...(options.security ?? [])])];
  app.route({
    method: def.method,
    url: def.path,
    ...(required === 'session' ? { onRequest: app.auth.requireSession } : {}),
    // The admin routes' plugin checks the token for its whole scope too; this keeps an admin
    // contract behind the token wherever its route is registered.
    ...(required === 'adminToken'
      ? { onRequest: async (request: FastifyRequest) => app.auth.requireAdmin(request) }
      : {}),
    schema: {
      summary: def.summary,
      ...(def.idempotent
        ? {
            description:
              '幂等：可带 Idempotency-Key 请求头；同一用户以同一编号重复调用，10 分钟内得到第一次的结果，不会重复创建。',
          }
        : {}),
      tags: [def.path.split('/')[2] ?? 'api'],
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(security.length > 0 ? { security: security.map((name) => ({ [name]: [] })) } : {}),
      response: {
        200: Type.Object({ code: Type.Literal(0), msg: Type.String(), data: def.response }),
      },
    },
    config: {
      stateChanging: options.stateChanging ?? def.method === 'POST',
      // An Idempotency-Key header is honoured (plugins/app/idempotency.ts).
      ...(def.idempotent ? { idempotent: true } : {}),
    },
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
