/** Business constants of spec section 9. */
export const REQUEST_TIMEOUT_MS = 240_000;
export const NOTICE_PAGE_SIZE = 1000;
export const MOBILE_BREAKPOINT_PX = 768;
export const MODAL_DEFAULT_WIDTH = 520;
export const POSTING_ACCOUNT_PROMPT_DELAY_MS = 20;
/** Fallback message when a failed answer carries no `msg` (spec section 7). */
export const REQUEST_FAILED_MESSAGE = '请求失败';
/** Key prefix of every value the browser remembers (spec section 3). */
export const STORAGE_PREFIX = 'KOL_';
