import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The workspace root: the nearest folder above the working directory that holds
 * pnpm-workspace.yaml. Found this way (not from import.meta.url) because the same modules run
 * as ESM under tsx and as CommonJS under jest, and `pnpm --filter` runs scripts in server/.
 */
export function findRepoRoot(from: string = process.cwd()): string {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`pnpm-workspace.yaml not found above ${from}`);
    dir = parent;
  }
}

export const MIGRATIONS_DIR = (): string => path.join(findRepoRoot(), 'server', 'migrations');

/** Where the host shell's webpack build goes (index.html at its root). */
export const HOST_DIST_DIR = (root: string = findRepoRoot()): string =>
  path.join(root, 'host-shell', 'dist');
