import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CACHE_IMMUTABLE, CACHE_NO_CACHE, pathSegments, sendStored } from '../http/static-files';
import { HOST_NAME, HOST_PAGE } from '../releases/build';
import { releaseKey } from '../releases/store';
import type { MediaStore } from '../storage';
import { contentTypeOf } from '../storage/content-types';
import { LocalStore } from '../storage/local-store';

/**
 * The Content-Security-Policy of the host page, which every remote runs inside.
 * - Scripts: this origin only. HtmlWebpackPlugin writes no inline script (only `<script src>`),
 *   the builds are production ones (no eval), and every remote's manifest, remoteEntry.js and
 *   chunks come from this origin's `/remotes/` (the registry answers only such URLs). Remotes
 *   served from a CDN would need its origin here, in script-src and connect-src.
 * - Styles: 'unsafe-inline', because antd's CSS-in-JS inserts `<style>` elements at run time
 *   (and index.html has one).
 * - Images and media: data: and blob: besides this origin, for the watermark (a canvas data URL),
 *   antd's upload thumbnails (data URLs) and players showing a file before it is uploaded.
 * - connect-src 'self': the API, its event streams and the remote manifests.
 * - Never framed (frame-ancestors, and X-Frame-Options for browsers without CSP 2): a page that
 *   spends quotas and changes accounts must not be clickjacked.
 * - With remote overrides allowed (REMOTE_OVERRIDES, config `remoteOverrides`), a developer's
 *   dev server on the browser's own machine as well: its manifest and chunks (connect-src,
 *   script-src), its styles and assets, and its hot-reload socket (ws:). Loopback only, as the
 *   host honours only loopback override URLs; CSP has no syntax for IPv6 literals.
 */
const LOOPBACK = ['http://localhost:*', 'http://127.0.0.1:*'];
const LOOPBACK_SOCKETS = ['ws://localhost:*', 'ws://127.0.0.1:*'];

export function hostPageCsp(remoteOverrides: boolean): string {
  const dev = (sources: string[]) => (remoteOverrides ? [...sources, ...LOOPBACK] : sources);
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', dev(["'self'"])],
    ['style-src', dev(["'self'", "'unsafe-inline'"])],
    ['img-src', dev(["'self'", 'data:', 'blob:'])],
    ['media-src', ["'self'", 'data:', 'blob:']],
    ['font-src', dev(["'self'", 'data:'])],
    ['connect-src', remoteOverrides ? [...dev(["'self'"]), ...LOOPBACK_SOCKETS] : ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** What a browser renders as a document of its own, and so what the page headers protect. */
const DOCUMENT_TYPE = /^(text\/html|image\/svg\+xml)/;

function hostPageHeaders(remoteOverrides: boolean) {
  return { 'content-security-policy': hostPageCsp(remoteOverrides), 'x-frame-options': 'DENY' };
}

/** Paths that are never the host's: their unknown URLs answer 404, not the app. */
const NOT_THE_HOST = /^\/(api|remotes|uploads)(\/|$)|^\/(healthz|readyz|metrics)$/;
/** `main.3fa9c2b1.js`, `387.1a99fcde.js.LICENSE.txt`: named by content, cached for good. */
const HASHED_NAME = /\.[0-9a-f]{8,}\./;

/**
 * A navigation rather than a script or image load. Browsers say text/html; a client that says
 * nothing in particular (curl) counts too when the path has no file extension.
 */
function wantsPage(request: FastifyRequest, pathname: string): boolean {
  const accept = request.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  const anything = accept === '' || accept.split(',').some((part) => part.trim().startsWith('*/*'));
  return anything && path.posix.extname(pathname) === '';
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>KOL Studio：前端尚未构建</title>
<style>
  body { margin: 0; background: #141414; color: rgba(255,255,255,.85);
         font: 15px/1.7 -apple-system, "PingFang SC", "Microsoft YaHei", sans-serif; }
  main { max-width: 560px; margin: 12vh auto; padding: 0 24px; }
  h1 { font-size: 22px; color: #eb2f96; }
  code { background: #262626; padding: 2px 6px; border-radius: 4px; }
  a { color: #eb2f96; }
</style>
</head>
<body>
<main>
  <h1>前端尚未构建</h1>
  <p>服务器已启动，接口可以使用，但还没有找到前端页面的构建结果（<code>host-shell/dist</code>）。</p>
  <p>请在仓库根目录运行 <code>pnpm build</code> 构建前端，然后刷新本页；
     或者停止服务器后运行 <code>pnpm start</code>，它会先构建前端再启动服务器。</p>
  <p>接口文档：<a href="/api/docs">/api/docs</a></p>
</main>
</body>
</html>
`;

function sendNotBuilt(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(NOT_BUILT_PAGE);
}

/**
 * The host shell at the site root: the files of its active release (hashed ones cached for
 * good; index.html never, as a rollback changes it), and
 * for any other page URL its index.html, so the host's router handles `/video/config`,
 * `/m/video`, `/login/ticket?...`. Registered as the catch-all GET, so every other route wins.
 */
export default async function hostRoutes(app: FastifyInstance) {
  const pageHeaders = hostPageHeaders(app.config.remoteOverrides ?? false);
  // The host build of this machine, served before the host's first release. Never `open`ed:
  // that would make the folder, and a missing one means the front end is not built.
  const hostBuild = new LocalStore(app.config.hostDistDir);

  /** Where the host's files are now: its active release in the store, or the build folder. */
  async function hostFiles(): Promise<{
    store: MediaStore;
    key: (file: string) => string;
    version: string | null;
  }> {
    const version = await app.releases.hostVersion();
    return version === null
      ? { store: hostBuild, key: (file) => file, version }
      : {
          store: app.stores.releases,
          key: (file) => releaseKey(HOST_NAME, version, file),
          version,
        };
  }

  /**
   * A hashed file the active host release lacks, from another stored host version: a page
   * loaded before a rollback or promote asks for its own chunks (same name, same content).
   */
  async function fromOtherRelease(file: string, active: string): Promise<string | null> {
    if (!HASHED_NAME.test(path.posix.basename(file))) return null;
    return app.releases.store.findInOtherVersion(HOST_NAME, file, active);
  }

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    if (NOT_THE_HOST.test(pathname)) return reply.callNotFound();
    // The active host release (a rollback shows at the next request), or before the host's
    // first release its build folder, as it was served before host releases.
    const host = await hostFiles();
    const segments = pathname === '/' ? [] : pathSegments(pathname, '/');
    // The segments passed pathSegments (no empty, dot or slash segment), so they make a key.
    const file = segments && segments.length > 0 ? segments.join('/') : null;
    let key = file && (await host.store.stat(host.key(file))) ? host.key(file) : null;
    if (!key && file && host.version !== null) key = await fromOtherRelease(file, host.version);
    if (key) {
      const name = path.posix.basename(key);
      // On what a browser can show as a document (HTML, SVG). A script or a style sheet runs
      // under the policy of the page that loads it, so the headers would only cost bytes on
      // every one of the first load's files.
      if (DOCUMENT_TYPE.test(contentTypeOf(key))) reply.headers(pageHeaders);
      return sendStored(
        request,
        reply,
        host.store,
        key,
        HASHED_NAME.test(name) && name !== HOST_PAGE ? CACHE_IMMUTABLE : CACHE_NO_CACHE,
        { precompressed: true },
      );
    }

    if (!wantsPage(request, pathname)) return reply.callNotFound();
    // The page, however it is reached (`/`, a page URL, the not-built page).
    reply.headers(pageHeaders);
    const index = host.key(HOST_PAGE);
    if (!(await host.store.stat(index))) return sendNotBuilt(reply);
    return sendStored(request, reply, host.store, index, CACHE_NO_CACHE, { precompressed: true });
  });
}
