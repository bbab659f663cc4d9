import { clearSessionAtom } from '@kol/shared-sdk/state';
import {
  getCurrentUser,
  getSsoLoginUrl,
  getSsoLogoutUrl,
  logout,
  setSignOutHandler,
  setUnauthorizedHandler,
  type UserInfo,
} from '@kol/shared-sdk';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useNavigate } from '@kol/shared-sdk/router';
import { platformConfigAtom } from '../lib/platform-config';
import { isSsoHost, isUserFetchExempt } from './route-rules';

/** Leaves the app for the single sign-on server's login page; rejects when it cannot. */
export async function startSignOn(): Promise<void> {
  const { url } = await getSsoLoginUrl();
  window.location.assign(url);
}

export function useIsSsoHost(): boolean {
  const { ssoHosts } = useAtomValue(platformConfigAtom);
  return isSsoHost(window.location.hostname, ssoHosts);
}

/** While the start-up fetch of the user runs, its own failure rule decides where to go. */
let startupFetchPending = false;
export function setStartupFetchPending(pending: boolean): void {
  startupFetchPending = pending;
}

let startupUser: Promise<UserInfo> | null = null;

/**
 * Starts the first page's user fetch at once, beside the registry and the configuration
 * (bootstrap.tsx), rather than after the first render: the frame, or the redirect to /home,
 * comes one request sooner. SessionGate takes the answer (`takeStartupUser`) and applies the
 * same rules to it as to its own fetch; its 401 is left to those rules, like SessionGate's own.
 */
export function prefetchStartupUser(pathname: string): Promise<UserInfo> | null {
  if (isUserFetchExempt(pathname)) return null;
  setStartupFetchPending(true);
  const fetching = getCurrentUser();
  startupUser = fetching;
  // Its 401 has reached the handler (which the flag tells to leave it) before it settles.
  fetching.catch(() => undefined).finally(() => setStartupFetchPending(false));
  return fetching;
}

/** The fetch `prefetchStartupUser` started, once; null when there is none (or it was taken). */
export function takeStartupUser(): Promise<UserInfo> | null {
  const fetching = startupUser;
  startupUser = null;
  return fetching;
}

/**
 * Installs what the SDK calls on a 401 (sign-on on an official host, else /login) and the
 * sign-out that remotes ask for (sso/logout then its URL on an official host, else
 * user/logout then /login).
 */
export function useSessionHandlers(): void {
  const navigate = useNavigate();
  const clearSession = useSetAtom(clearSessionAtom);
  const ssoHost = useIsSsoHost();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (startupFetchPending) return;
      clearSession();
      if (ssoHost) startSignOn().catch(() => navigate('/login', { replace: true }));
      else navigate('/login', { replace: true });
    });
    setSignOutHandler(async () => {
      if (ssoHost) {
        const { url } = await getSsoLogoutUrl();
        clearSession();
        window.location.assign(url);
        return;
      }
      await logout();
      clearSession();
      navigate('/login', { replace: true });
    });
    return () => {
      setUnauthorizedHandler(null);
      setSignOutHandler(null);
    };
  }, [navigate, clearSession, ssoHost]);
}
