import {
  getCurrentUser,
  getUserLimitInfo,
  remainingGenerations,
  canOpenConvertWorks,
} from '@kol/shared-sdk';
import { USAGE_LIMITS_KEY, currentUserAtom, usageLimitsAtom } from '@kol/shared-sdk/state';
import { useQuery } from '@tanstack/react-query';
import { Spin } from 'antd';
import { useAtom } from 'jotai';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from '@kol/shared-sdk/router';
import {
  compositionTypeOf,
  desktopPathOf,
  isUserFetchExempt,
  signedOutDestination,
} from './route-rules';
import {
  setStartupFetchPending,
  startSignOn,
  takeStartupUser,
  useIsSsoHost,
  useSessionHandlers,
} from './sign-on';

/** Back one page, or home when this page was the first one opened. */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate('/', { replace: true });
  };
}

/**
 * The session rules of spec section 4. The user is fetched when a page needs one and none is
 * known (so not on /login, /home, /login/ticket, /tts, /close); the checks run on every
 * navigation once the user is known.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  useSessionHandlers();
  const location = useLocation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const ssoHost = useIsSsoHost();
  const [user, setUser] = useAtom(currentUserAtom);
  const [limits, setLimits] = useAtom(usageLimitsAtom);
  const fetchedFor = useRef<string | null>(null);
  const exempt = isUserFetchExempt(location.pathname);

  useEffect(() => {
    if (user) {
      // Known on this page. Cleared here (a 401, a sign-out), it is not fetched again: the
      // handler is taking the page to /login, in a transition that can commit after this render,
      // and a fetch meeting the 401 would send it to /home instead.
      fetchedFor.current = location.key;
      return;
    }
    if (exempt || fetchedFor.current === location.key) return;
    fetchedFor.current = location.key;
    setStartupFetchPending(true);
    // The fetch the bootstrap started for the first page, else a new one.
    (takeStartupUser() ?? getCurrentUser())
      .then(setUser)
      .catch(() => {
        if (ssoHost) startSignOn().catch(() => navigate('/home', { replace: true }));
        else navigate(signedOutDestination(location.pathname, location.search), { replace: true });
      })
      .finally(() => {
        setStartupFetchPending(false);
      });
  }, [user, exempt, location.key, location.pathname, location.search, ssoHost, navigate, setUser]);

  // The counts, once a user is known and none are (the quota rule below reads them), under the
  // key every page's `useUsageLimits` shares, into the same atom. A failure leaves them unknown:
  // the quota rule cannot apply, and pages that spend show the server's answer.
  useQuery({
    queryKey: USAGE_LIMITS_KEY,
    queryFn: async ({ signal }) => {
      const answer = await getUserLimitInfo(undefined, { signal });
      setLimits(answer);
      return answer;
    },
    enabled: user !== null && limits === null,
    // Asked whenever the atom has none (a new session), whatever the cache holds.
    staleTime: 0,
  });

  const path = desktopPathOf(location.pathname);
  useEffect(() => {
    if (!user) return;
    if (user.status === 0 && path !== '/register') {
      navigate('/register', { replace: true });
      return;
    }
    if (path === '/work/convert' && !canOpenConvertWorks(user)) {
      goBack();
      return;
    }
    const type = compositionTypeOf(location.pathname, location.search);
    if (type !== null && limits && remainingGenerations(limits, type) <= 0) goBack();
    // goBack is a new function each render; the rules depend on the location and the session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user, limits, path, location.pathname, location.search, navigate]);

  if (!user && !exempt) {
    // Until the user is known, or the failure rule has moved the page elsewhere.
    return <Spin size="large" style={{ display: 'block', margin: '30vh auto' }} />;
  }
  return <>{children}</>;
}
