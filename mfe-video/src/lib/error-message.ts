import { REQUEST_FAILED_MESSAGE, isApiError } from '@kol/shared-sdk';

/** What to tell the user about a failed call: the SDK's message (the server's msg or the transport's). */
export function errorMessage(error: unknown, fallback = REQUEST_FAILED_MESSAGE): string {
  return isApiError(error) && error.message ? error.message : fallback;
}
