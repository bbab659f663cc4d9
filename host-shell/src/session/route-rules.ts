import { MOBILE_BREAKPOINT_PX, ProjectType, WORK_MENU_ITEMS } from '@kol/shared-sdk';

/** Pages that do not fetch the user at start (spec section 4). */
export const USER_FETCH_EXEMPT_PATHS = ['/login', '/home', '/login/ticket', '/tts', '/close'];

/** Pages where the posting-account prompt never shows (spec section 5). */
export const POSTING_PROMPT_EXEMPT_PATHS = ['/user', '/login', '/home', '/login/ticket', '/close'];

/** Pages with a phone variant under /m (spec section 2). */
export const MOBILE_PAGES = [
  '/',
  '/video',
  '/video/caption',
  '/video/decompression',
  '/video/config',
  '/video/character',
  '/video/production',
];

export function isUserFetchExempt(pathname: string): boolean {
  return USER_FETCH_EXEMPT_PATHS.includes(normalize(pathname));
}

/**
 * Only a path inside this site may be a return target, never another origin. Here, not in the
 * login page: the landing page (in the first load) reads it too, and importing it from the
 * login page brought that page's form, input and card into every first load (+23 KB).
 */
export function safeReturnUrl(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/**
 * Where a page that needs a user sends a visitor without one (off the single sign-on hosts):
 * /home, as the spec says, remembering the page asked for (`returnUrl`, taken on by the landing
 * page's 登录 and by /login), so that signing in lands there; /video/cut goes to /login.
 */
export function signedOutDestination(pathname: string, search = ''): string {
  const path = normalize(pathname);
  if (path === '/video/cut') return '/login?returnUrl=/video/cut';
  if (path === '/' || path === '/home') return '/home';
  return `/home?returnUrl=${encodeURIComponent(path + search)}`;
}

export function isPostingPromptExempt(pathname: string): boolean {
  return POSTING_PROMPT_EXEMPT_PATHS.includes(normalize(pathname));
}

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function isMobilePath(pathname: string): boolean {
  return pathname === '/m' || pathname.startsWith('/m/');
}

/** The desktop path of a /m path: `/m` is `/`, `/m/video` is `/video`. */
export function desktopPathOf(pathname: string): string {
  return isMobilePath(pathname) ? pathname.slice(2) || '/' : pathname;
}

/**
 * Where the mobile rules send a location, or null to stay: a narrow screen on a listed page goes
 * under /m, a wide screen on a listed /m page comes back, and an /m page that is not listed goes
 * to its normal path whatever the width. The query string is kept.
 */
export function mobileRedirectTarget(
  pathname: string,
  search: string,
  width: number,
): string | null {
  const path = normalize(pathname);
  const narrow = width < MOBILE_BREAKPOINT_PX;
  if (isMobilePath(path)) {
    const desktop = desktopPathOf(path);
    return MOBILE_PAGES.includes(desktop) && narrow ? null : desktop + search;
  }
  if (MOBILE_PAGES.includes(path) && narrow) return (path === '/' ? '/m' : `/m${path}`) + search;
  return null;
}

/**
 * Composition configuration pages and the video type whose quota each needs (spec section 4).
 * `/video/config` and `/video/configuration` serve several types: `?videoType=` names it
 * (e.g. 5 for overseas comics), comics by default.
 */
const COMPOSITION_CONFIG_PAGES: Record<string, ProjectType | 'fromQuery'> = {
  '/video/config': 'fromQuery',
  '/video/configuration': 'fromQuery',
  '/video/operaConfig': ProjectType.realOpera,
  '/video/animeConfig': ProjectType.animeShorts,
  '/convertConfig': ProjectType.convert,
};

export function compositionTypeOf(pathname: string, search: string): ProjectType | null {
  const rule = COMPOSITION_CONFIG_PAGES[desktopPathOf(normalize(pathname))];
  if (rule === undefined) return null;
  if (rule !== 'fromQuery') return rule;
  const fromQuery = Number(new URLSearchParams(search).get('videoType'));
  const known = Object.values(ProjectType) as number[];
  return (known.includes(fromQuery) ? fromQuery : ProjectType.comics) as ProjectType;
}

/** The template id a work page needs, or undefined for a page that needs none. */
export function workTemplateOf(pathname: string): number | null | undefined {
  return WORK_MENU_ITEMS.find((item) => item.path === normalize(pathname))?.templateId;
}

/** The official and test hostnames sign on through SSO; they come from the server's config. */
export function isSsoHost(hostname: string, ssoHosts: readonly string[]): boolean {
  return ssoHosts.some((host) => host.split(':')[0] === hostname);
}
