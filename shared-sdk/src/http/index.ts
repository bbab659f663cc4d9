export { ApiError, errorMessage, isApiError, type ApiErrorKind } from './errors';
export {
  configureHttp,
  currentPlatform,
  httpClient,
  request,
  setUnauthorizedHandler,
  type CallOptions,
  type HttpOptions,
  type UnauthorizedHandler,
} from './client';
export { idempotencyKeyFor, newIdempotencyKey } from './idempotency';
export { mediaUrl } from './media-url';
