import { useCallback } from 'react';
import { useLocation, useNavigate, type NavigateOptions } from '@kol/shared-sdk/router';

/**
 * The pages with a phone variant under `/m` (spec section 2). The host routes `/m<path>` to the
 * same claim, so a page learns it is the phone variant from the address.
 */
export const PHONE_PAGES: readonly string[] = [
  '/video',
  '/video/caption',
  '/video/decompression',
  '/video/config',
  '/video/character',
  '/video/production',
];

export function isPhonePath(pathname: string): boolean {
  return pathname === '/m' || pathname.startsWith('/m/');
}

/** True on the `/m` variant of a page: one column, full-width controls, a bottom action bar. */
export function usePhoneLayout(): boolean {
  return isPhonePath(useLocation().pathname);
}

/**
 * The address of a page as this layout should open it: on a phone page, a page that has a phone
 * variant opens under `/m` (the host would redirect there anyway, after a flash of the wide one).
 */
export function pagePath(to: string, phone: boolean): string {
  const [pathname = '', query] = to.split('?');
  if (!phone || !PHONE_PAGES.includes(pathname)) return to;
  return `/m${pathname}${query === undefined ? '' : `?${query}`}`;
}

/** `navigate` that keeps a phone page's next page on the phone variant when there is one. */
export function usePageNavigate() {
  const navigate = useNavigate();
  const phone = usePhoneLayout();
  return useCallback(
    (to: string, options?: NavigateOptions) => navigate(pagePath(to, phone), options),
    [navigate, phone],
  );
}
