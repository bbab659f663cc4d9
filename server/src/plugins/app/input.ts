import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../../http/api-error';
import { inputRuleMessage } from '../../http/validation-message';

/** The request parts Fastify validates, with the route schema key of each. */
const PARTS = [
  ['body', (request: FastifyRequest) => request.body],
  ['querystring', (request: FastifyRequest) => request.query],
  ['params', (request: FastifyRequest) => request.params],
] as const;

/**
 * Input rules no schema can state, checked right before schema validation on each part that
 * has a schema (see `inputRuleMessage`): no string (value or key) may hold U+0000, which
 * PostgreSQL text and jsonb cannot store, and no number field may be given a number too large
 * to be finite (`1e400`). Refused rather than stripped: a password or a name silently changed
 * would be worse than a message saying which field to fix.
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
      for (const [part, read] of PARTS) {
        if (!schema?.[part]) continue;
        const message = inputRuleMessage(read(request), schema[part]);
        if (message) throw badRequest(message);
      }
    });
  },
  { name: 'input' },
);
