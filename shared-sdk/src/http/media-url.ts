import { httpClient } from './client';

/**
 * A `/media/…` or `/uploads/…` address as the browser should load it: the server answers them
 * relative to its own origin, which is the SDK's base URL when the API is on another origin.
 */
export function mediaUrl(url: string): string {
  if (!url || /^(https?:|blob:|data:)/.test(url)) return url;
  return `${httpClient.defaults.baseURL ?? ''}${url}`;
}
