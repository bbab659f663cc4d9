import type { FastifyRequest } from 'fastify';

/** The request's end (the user left) or the time limit, whichever comes first. */
export function requestSignal(request: FastifyRequest, timeoutMs: number): AbortSignal {
  const left = new AbortController();
  request.raw.once('close', () => {
    if (!request.raw.complete) left.abort(new Error('client closed'));
  });
  return AbortSignal.any([left.signal, AbortSignal.timeout(timeoutMs)]);
}
