import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '@kol/shared-sdk/router';
import { mobileRedirectTarget } from '../session/route-rules';

/** Applies the mobile rules of spec section 2 on every navigation and when the window resizes. */
export function MobileRedirect() {
  const location = useLocation();
  const navigate = useNavigate();
  const [width, setWidth] = useState(() => window.innerWidth);

  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    const target = mobileRedirectTarget(location.pathname, location.search, width);
    if (target) navigate(target, { replace: true });
  }, [location.pathname, location.search, width, navigate]);

  return null;
}
