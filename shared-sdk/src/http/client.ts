import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig } from 'axios';
import {
  IDEMPOTENCY_HEADER,
  MOBILE_BREAKPOINT_PX,
  REQUEST_FAILED_MESSAGE,
  REQUEST_TIMEOUT_MS,
} from '../constants';
import { ClientPlatform } from '../enums';
import { ErrorCode } from '../error-codes';
import { ApiError } from './errors';

/** Runs when any call answers 401. The host installs it; the SDK itself never navigates. */
export type UnauthorizedHandler = (error: ApiError) => void;

let unauthorizedHandler: UnauthorizedHandler | null = null;

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/** `m` on a viewport narrower than the mobile breakpoint, else `pc`; read at each request. */
export function currentPlatform(): ClientPlatform {
  if (typeof window === 'undefined') return ClientPlatform.pc;
  return window.innerWidth < MOBILE_BREAKPOINT_PX ? ClientPlatform.mobile : ClientPlatform.pc;
}

interface EnvelopeLike {
  code: unknown;
  msg?: unknown;
  data?: unknown;
}

function isEnvelope(body: unknown): body is EnvelopeLike {
  return typeof body === 'object' && body !== null && 'code' in body;
}

function messageOf(body: EnvelopeLike): string {
  return typeof body.msg === 'string' && body.msg !== '' ? body.msg : REQUEST_FAILED_MESSAGE;
}

function rejectUnauthorized(message: string, status: number | null): never {
  const error = new ApiError('unauthorized', message, ErrorCode.unauthorized, status);
  unauthorizedHandler?.(error);
  throw error;
}

/** Turns an envelope into its data, or into the ApiError the spec's rules call for. */
function unwrap(body: unknown, status: number): unknown {
  if (!isEnvelope(body)) {
    throw new ApiError('business', REQUEST_FAILED_MESSAGE, null, status);
  }
  const code = Number(body.code);
  if (code === ErrorCode.ok) return body.data ?? null;
  if (code === ErrorCode.unauthorized) rejectUnauthorized(messageOf(body), status);
  throw new ApiError('business', messageOf(body), code, status);
}

function fromTransportError(error: unknown): ApiError {
  if (axios.isCancel(error)) {
    return new ApiError('aborted', (error as Error).message || 'canceled', null, null);
  }
  if (error instanceof AxiosError) {
    const response = error.response;
    if (response) {
      // The server answered with an error status: its envelope, when present, says why.
      if (isEnvelope(response.data)) {
        try {
          unwrap(response.data, response.status);
        } catch (apiError) {
          return apiError as ApiError;
        }
      }
      if (response.status === ErrorCode.unauthorized) {
        try {
          rejectUnauthorized(REQUEST_FAILED_MESSAGE, response.status);
        } catch (apiError) {
          return apiError as ApiError;
        }
      }
      return new ApiError('business', REQUEST_FAILED_MESSAGE, response.status, response.status);
    }
    const timedOut = error.code === AxiosError.ECONNABORTED || error.code === AxiosError.ETIMEDOUT;
    return new ApiError(timedOut ? 'timeout' : 'network', error.message, null, null);
  }
  return new ApiError(
    'network',
    error instanceof Error ? error.message : String(error),
    null,
    null,
  );
}

/** The one axios instance of the product. No remote creates its own. */
export const httpClient: AxiosInstance = axios.create({
  timeout: REQUEST_TIMEOUT_MS,
  withCredentials: true,
});

// Synchronous, so a call leaves at once rather than after the current task: the host's start-up
// requests travel while the rest of its code is still being evaluated.
httpClient.interceptors.request.use(
  (config) => {
    config.headers.set('platform', currentPlatform());
    return config;
  },
  undefined,
  { synchronous: true },
);

export interface HttpOptions {
  /** Origin of the backend; empty means the page's own origin. */
  baseURL?: string;
  /** Only tests shorten this; the product keeps the spec's 240 000 ms. */
  timeout?: number;
}

export function configureHttp(options: HttpOptions): void {
  if (options.baseURL !== undefined) httpClient.defaults.baseURL = options.baseURL;
  if (options.timeout !== undefined) httpClient.defaults.timeout = options.timeout;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * How much of the request body is sent, 0 to 100, as it goes (uploads): a large file takes
   * long enough that the user must see it move.
   */
  onUploadProgress?: (percent: number) => void;
  /**
   * The `Idempotency-Key` header. The typed call of an idempotent endpoint sets one itself (see
   * idempotency.ts); a page gives its own to make one action's key outlive the page, e.g. kept
   * in its KOL_ session state so that a reload and a click again reuse it.
   */
  idempotencyKey?: string;
}

/** Sends one call and applies every rule of spec section 7 to its answer. */
export async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  input: { query?: object; body?: unknown },
  options: CallOptions = {},
): Promise<T> {
  const config: AxiosRequestConfig = {
    method,
    url: path,
    params: input.query,
    data: input.body,
    signal: options.signal,
    ...(options.idempotencyKey
      ? { headers: { [IDEMPOTENCY_HEADER]: options.idempotencyKey } }
      : {}),
  };
  const { onUploadProgress } = options;
  if (onUploadProgress) {
    config.onUploadProgress = (event) => {
      // Without a known total (some browsers on some bodies) nothing honest can be said.
      if (event.total)
        onUploadProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
  }
  let response;
  try {
    response = await httpClient.request(config);
  } catch (error) {
    throw fromTransportError(error);
  }
  return unwrap(response.data, response.status) as T;
}
