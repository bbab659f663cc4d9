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
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
