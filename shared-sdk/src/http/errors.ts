import { REQUEST_FAILED_MESSAGE } from '../constants';
import { ErrorCode } from '../error-codes';

/** Why a call failed: the server said no, or the transport failed before an answer. */
export type ApiErrorKind = 'business' | 'unauthorized' | 'network' | 'timeout' | 'aborted';

/**
 * The one error every SDK call rejects with. `code` is the body code for answers from the
 * server, and null when no answer came (network, timeout, abort).
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number | null;
  /** HTTP status, when an answer came. */
  readonly status: number | null;

  constructor(kind: ApiErrorKind, message: string, code: number | null, status: number | null) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = code;
    this.status = status;
  }

  get isUnauthorized(): boolean {
    return this.code === ErrorCode.unauthorized;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * What to tell the user about a failed call: the SDK's message (the server's `msg` or the
 * transport's), else `fallback`.
 */
export function errorMessage(error: unknown, fallback = REQUEST_FAILED_MESSAGE): string {
  return isApiError(error) && error.message ? error.message : fallback;
}
