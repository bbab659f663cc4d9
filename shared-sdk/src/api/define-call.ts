import type { Static, TSchema } from 'typebox';
import type { DataOf, EndpointDef } from '../contracts/common';
import { request, type CallOptions } from '../http/client';
import { withIdempotencyKey } from '../http/idempotency';

/** What a call takes: its query (GET) or body (POST), or nothing. */
export type InputOf<E extends EndpointDef> = E extends { query: infer S extends TSchema }
  ? Static<S>
  : E extends { body: infer S extends TSchema }
    ? Static<S>
    : void;

export type Call<E extends EndpointDef> = (
  input: InputOf<E>,
  options?: CallOptions,
) => Promise<DataOf<E>>;

/** `'idempotent'` exactly when the contract is (EndpointDef.idempotent), else nothing. */
type IdempotentFlag<E extends EndpointDef> = E extends { idempotent: true } ? ['idempotent'] : [];

/**
 * Makes the typed function of one endpoint. `method` and `path` must equal the contract's
 * literals (a typo does not compile), and the browser imports only the contract's type, so an
 * idempotent contract is said again here: `'idempotent'` must be given for it and only for it.
 * Such a call carries an `Idempotency-Key` (http/idempotency.ts): the same one for a repeat of
 * the same call while the first is in flight or just settled, or the page's own
 * (`options.idempotencyKey`).
 */
export function defineCall<E extends EndpointDef>(
  method: E['method'],
  path: E['path'],
  ...flag: IdempotentFlag<E>
): Call<E> {
  const idempotent = flag.length > 0;
  return (input, options) => {
    const send = (idempotencyKey?: string) =>
      request<DataOf<E>>(
        method,
        path,
        method === 'GET' ? { query: (input ?? undefined) as object | undefined } : { body: input },
        idempotencyKey ? { ...options, idempotencyKey } : options,
      );
    if (!idempotent) return send();
    return withIdempotencyKey(method, path, input, options?.idempotencyKey, send);
  };
}
