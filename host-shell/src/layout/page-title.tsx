import { useEffect } from 'react';

/** The site's name as the served index.html gives it (a host release may change it). */
const SITE_TITLE = document.title || 'KOL Studio';

/**
 * The page's name, from its route claim's `title`, as the browser tab's title,
 * `<title> - <site title>` (the page's own visible title is its one `h1`). A claim without a
 * title (a release made before titles) leaves the tab as the site's.
 */
export function PageTitle({ title }: { title: string | undefined }) {
  useEffect(() => {
    document.title = title ? `${title} - ${SITE_TITLE}` : SITE_TITLE;
    return () => {
      document.title = SITE_TITLE;
    };
  }, [title]);
  return null;
}
