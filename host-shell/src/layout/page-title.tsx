import { useEffect } from 'react';

/**
 * The page's name, from its route claim's `title`, as the browser tab's title (the page's own
 * visible title is its one `h1`). A claim without a title (a release made before titles) leaves
 * the tab as KOL Studio.
 */
export function PageTitle({ title }: { title: string | undefined }) {
  useEffect(() => {
    document.title = title ? `${title} - KOL Studio` : 'KOL Studio';
    return () => {
      document.title = 'KOL Studio';
    };
  }, [title]);
  return null;
}
