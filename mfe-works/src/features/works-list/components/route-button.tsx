import type { MouseEvent } from 'react';
import { Button, type ButtonProps } from 'antd';
import { useHref, useNavigate } from '@kol/shared-sdk/router';

type RouteButtonProps = Omit<ButtonProps, 'href' | 'onClick'> & { to: string };

/**
 * A button that is a real link to a page of the host's router: it can be opened in a new tab,
 * and a plain click navigates inside the app instead of reloading it.
 */
export function RouteButton({ to, ...button }: RouteButtonProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  const follow = (event: MouseEvent<HTMLElement>) => {
    // A modified or middle click is the browser's (new tab or window).
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    void navigate(to);
  };
  return <Button {...button} href={href} onClick={follow} />;
}
