// The MLT export's test renders the exported project with melt, MLT's own command-line
// renderer (the engine under Shotcut and Kdenlive), so the project is checked by an outside
// renderer rather than by our own reading of it. Install Debian's package when melt is not on
// PATH (the test machines run as root and reach Debian's mirror). Plain Node, no dependencies.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The first executable `melt` on PATH, or null. */
function findMelt() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, 'melt');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/**
 * One installer at a time on the machine: the test command starts one at its beginning
 * (scripts/test.mjs), and the MLT test calls this too; a second waits for the first and then
 * finds melt there. apt's own locks do not cover its `update` on every version.
 */
const LOCK = path.join(os.tmpdir(), 'kol-ensure-melt.lock');
function takeLock() {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = 0;
      try {
        owner = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
      } catch {
        // Made a moment ago: its pid follows.
      }
      let alive = owner > 0;
      try {
        if (alive) process.kill(owner, 0);
      } catch {
        alive = false;
      }
      if (owner > 0 && !alive) rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
    }
  }
}

let melt = findMelt();
const locked = !melt;
if (locked) takeLock();
melt = findMelt();
if (!melt) {
  const started = Date.now();
  console.log('melt: installing the melt package with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Two installers at once (two test runs on one machine) wait for dpkg's lock instead of
  // failing at once.
  const lock = ['-o', 'DPkg::Lock::Timeout=600'];
  execFileSync('apt-get', [...lock, 'update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', [...lock, 'install', '-y', '-qq', '--no-install-recommends', 'melt'], {
    stdio: 'inherit',
    env,
  });
  melt = findMelt();
  if (!melt) throw new Error('melt: apt-get installed the melt package, yet no melt is on PATH');
  console.log(`melt: installed in ${Math.round((Date.now() - started) / 1000)} s`);
}
if (locked) rmSync(LOCK, { recursive: true, force: true });
console.log(`melt: using ${melt}`);
