/**
 * Body codes of the `{ code, msg, data }` envelope. 0 and 401 are the spec's; the others
 * follow the HTTP status the server answers with, so a reader needs no second table.
 */
export const ErrorCode = {
  ok: 0,
  badRequest: 400,
  unauthorized: 401,
  quotaExhausted: 402,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  /** A save based on a revision of the record that is no longer the newest (HTTP 412). */
  staleRevision: 412,
  payloadTooLarge: 413,
  /** An idempotency key given again with another request (see EndpointDef.idempotent). */
  unprocessable: 422,
  tooManyRequests: 429,
  internal: 500,
  upstream: 502,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
