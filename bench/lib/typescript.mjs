// The server's TypeScript (and the SDK's) loaded in a bench's own process, through tsx (a
// dependency of @kol/server), so a bench measures the real code without a build.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `require` as the server resolves it (its dependencies: @napi-rs/canvas, jieba…). */
export const requireFromServer = createRequire(path.join(root, 'server', 'package.json'));
// The ESM build: require.resolve would find the CommonJS one, which cannot load ESM hooks.
const tsxApi = requireFromServer.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
const { tsImport } = await import(pathToFileURL(tsxApi).href);

/** A module of the repository by its path from the root, e.g. `server/src/text/cast.ts`. */
export const loadTs = (file) =>
  tsImport(pathToFileURL(path.join(root, file)).href, import.meta.url);
