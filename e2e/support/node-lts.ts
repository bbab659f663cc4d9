import path from 'node:path';
import { NODE_LTS, nodeLts as nodeLtsIn } from '../../scripts/node-lts.mjs';

const REPO = path.resolve(__dirname, '..', '..');

/**
 * The Node LTS the product is also started on (issue 32), pinned in scripts/node-lts.mjs,
 * which the test command also runs its tools on.
 */
export { NODE_LTS };

/** The path of a Node `NODE_LTS` binary, fetched from the npm registry when missing. */
export function nodeLts(): Promise<string> {
  return nodeLtsIn(REPO);
}
