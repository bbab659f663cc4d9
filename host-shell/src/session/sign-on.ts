import { clearSessionAtom } from '@kol/shared-sdk/state';
import {
  getSsoLoginUrl,
  getSsoLogoutUrl,
  logout,
  setSignOutHandler,
  setUnauthorizedHandler,
} from '@kol/shared-sdk';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { platformConfigAtom } from '../app/platform-state';
import { isSsoHost } from './route-rules';

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
