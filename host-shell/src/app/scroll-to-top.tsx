import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from '@kol/shared-sdk/router';

/**
 * Opens a page that was navigated to (a link, a flow's 下一步) at its top: the window otherwise
 * keeps the previous page's scroll position, and a flow's next step opened half-way down. A
 * step kept in the address (`?step=`) counts as a page. Going back or forward (POP) keeps what
 * the browser restores, and a page rewriting its own address (replace: a work id, a filter)
 * stays where the creator is.
 */
export function ScrollToTop() {
  const { pathname, search } = useLocation();
  const navigationType = useNavigationType();
  const step = new URLSearchParams(search).get('step');
  useLayoutEffect(() => {
    if (navigationType === 'PUSH') window.scrollTo(0, 0);
    // Only a new page or step: the navigation type is read at that moment, not a dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, step]);
  return null;
}
