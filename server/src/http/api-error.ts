import { ErrorCode } from '@kol/shared-sdk/contracts';

/**
 * A failure the user should read: its code goes into the envelope (and the HTTP status), its
 * message is shown as is, so it is written in Chinese.
 */
export class ApiError extends Error {
  constructor(
    readonly code: Exclude<ErrorCode, 0>,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(ErrorCode.badRequest, message);
export const unauthorized = (message = '请先登录') => new ApiError(ErrorCode.unauthorized, message);
export const forbidden = (message: string) => new ApiError(ErrorCode.forbidden, message);
export const notFound = (message: string) => new ApiError(ErrorCode.notFound, message);
export const conflict = (message: string) => new ApiError(ErrorCode.conflict, message);
/** A save based on a revision of the record that is no longer the newest. */
export const staleRevision = (what = '该作品') =>
  new ApiError(ErrorCode.staleRevision, `${what}已在其他页面修改，请刷新后再编辑`);
export const unprocessable = (message: string) => new ApiError(ErrorCode.unprocessable, message);
export const tooManyRequests = (message: string) =>
  new ApiError(ErrorCode.tooManyRequests, message);
export const upstreamError = (message: string) => new ApiError(ErrorCode.upstream, message);
