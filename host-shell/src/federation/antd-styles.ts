// The cssinjs module the shared `@ant-design/cssinjs` is built from (the same file, so the same
// instance): its cache-path map tells antd which styles a CSS file already holds.
import { reset as setCssFileStyles } from '@ant-design/cssinjs/es/util/cacheMapUtil';

/**
 * The antd styles the builds wrote ahead of time (scripts/antd-styles.cjs): the host's in
 * `antd.<hash>.css`, linked from index.html; each remote's in `antd-styles.css` beside its
 * manifest. Each file ends with the cache-path map of what it holds, as the `content` of a class
 * of its own; once a file has loaded, its map joins the one cssinjs reads, and antd skips
 * computing those styles at their first render. cssinjs reads a map from CSS once, at its first
 * style, so the maps of files that arrive later are handed to it here. A file that is missing or
 * fails leaves its components styled at run time, as before.
 */
const known: Record<string, string> = {};
const loading = new Map<string, Promise<void>>();

/** Adds the map a loaded file carries on `.kol-antd-styles-<app>`; false when there is none. */
export function adoptAntdStyles(app: string): boolean {
  const probe = document.createElement('div');
  probe.className = `kol-antd-styles-${app}`;
  probe.style.display = 'none';
  document.body.appendChild(probe);
  const content = getComputedStyle(probe).content;
  probe.remove();
  // `none` (no such rule), or the map quoted: "path:hash;path:hash".
  if (!content.startsWith('"')) return false;
  for (const entry of content.slice(1, -1).split(';')) {
    const at = entry.lastIndexOf(':');
    if (at > 0) known[entry.slice(0, at)] = entry.slice(at + 1);
  }
  setCssFileStyles(known, true);
  return true;
}

/** The styles file of a remote's release, from its manifest's URL (same folder). */
export function remoteStylesUrl(manifestUrl: string): string {
  return new URL('antd-styles.css', new URL(manifestUrl, window.location.href)).href;
}

/**
 * Loads a remote release's styles file once and adopts its map. Never rejects: without the file
 * the remote's components are styled at run time.
 */
export function loadRemoteAntdStyles(app: string, manifestUrl: string): Promise<void> {
  const href = remoteStylesUrl(manifestUrl);
  let done = loading.get(href);
  if (!done) {
    done = new Promise<void>((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = () => {
        adoptAntdStyles(app);
        resolve();
      };
      link.onerror = () => {
        link.remove();
        resolve();
      };
      document.head.appendChild(link);
    });
    loading.set(href, done);
  }
  return done;
}
