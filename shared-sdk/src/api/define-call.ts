import type { Static, TSchema } from 'typebox';
import type { DataOf, EndpointDef } from '../contracts/common';
import { request, type CallOptions } from '../http/client';

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

/**
 * Makes the typed function of one endpoint. `method` and `path` must equal the contract's
 * literals (a typo does not compile), and the browser imports only the contract's type.
 */
export function defineCall<E extends EndpointDef>(method: E['method'], path: E['path']): Call<E> {
  return (input, options) =>
    request<DataOf<E>>(
      method,
      path,
      method === 'GET' ? { query: (input ?? undefined) as object | undefined } : { body: input },
      options,
    );
}
