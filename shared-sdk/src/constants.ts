/** Business constants of spec section 9. */
export const REQUEST_TIMEOUT_MS = 240_000;
export const NOTICE_PAGE_SIZE = 1000;
export const MOBILE_BREAKPOINT_PX = 768;
export const MODAL_DEFAULT_WIDTH = 520;
export const POSTING_ACCOUNT_PROMPT_DELAY_MS = 20;
/** Fallback message when a failed answer carries no `msg` (spec section 7). */
export const REQUEST_FAILED_MESSAGE = '请求失败';
/**
 * The text of a generation streams as server-sent events from this path (`?taskId=`), outside the
 * JSON envelope: event `delta` with `{ text }` (the new piece), then `done` with `{ result }` (the
 * final TextResult), or `error` with `{ message }`. A client that connects late first receives
 * the text so far as one `delta`.
 */
export const WRITING_STREAM_PATH = '/api/writing/gen_stream';
/**
 * Progress of a work's video (or merge) task as server-sent events (`?workId=`), outside the
 * JSON envelope: event `progress` with a WorkResult each time the stage or percentage changes,
 * then `done` with the final WorkResult (succeeded, failed or cancelled) and the stream ends.
 * A work with nothing running answers `done` at once.
 */
export const VIDEO_PROGRESS_STREAM_PATH = '/api/video/progress_stream';
/** Largest book a user may upload (TXT in UTF-8 or GB18030, or EPUB). */
export const MAX_BOOK_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Largest image a user may upload (avatars, role references). */
export const MAX_IMAGE_UPLOAD_BYTES = 5 * 1024 * 1024;

/** Key prefix of every value the browser remembers (spec section 3). */
export const STORAGE_PREFIX = 'KOL_';
