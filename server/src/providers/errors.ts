/**
 * The one error of every provider (text, chat, images, speech, transcription): its message is
 * Chinese, names the service and the cause, and is what the user reads.
 */
export type ProviderFailure =
  | 'unreachable'
  | 'unauthorized'
  | 'balance'
  | 'rateLimited'
  | 'server'
  | 'rejected'
  | 'timeout'
  | 'empty'
  | 'malformed';

/** A provider failure whose message (Chinese, naming the provider and the cause) the user reads. */
export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    /** How long the service asked to wait before another try (its `retry-after`), if it said. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A `retry-after` header (seconds, or an HTTP date) in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
