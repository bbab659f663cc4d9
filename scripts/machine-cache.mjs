// The machine's cache of work a clone would otherwise redo: builds and type-check state that
// depend only on files in the repository. A second clone on the same machine (a git worktree, a
// CI run in a fresh clone) starts from them instead of from nothing. Plain Node, no dependencies.
//
// KOL_CACHE_DIR names the folder (default ~/.cache/kol-studio); KOL_CACHE_DIR=off turns the
// cache off. What is kept is keyed by a hash of its inputs (builds) or checked by the tool that
// reads it (TypeScript's build info records each file's hash and re-checks what changed), so a
// stale entry is never used as current; losing the folder only costs time.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Entries kept per name: the newest few (another branch's build, the one before a change). */
const KEEP = 4;

/** The cache's folder, or null when it is off. */
export function cacheRoot() {
  const configured = process.env.KOL_CACHE_DIR;
  if (configured === 'off') return null;
  return configured ? path.resolve(configured) : path.join(os.homedir(), '.cache', 'kol-studio');
}

function entryDir(kind, name, key) {
  const root = cacheRoot();
  return root ? path.join(root, kind, name, key) : null;
}

/**
 * Copies the cached folder of `kind/name/key` to `target` (replacing it). Answers whether there
 * was one. A copy that fails half-way leaves no target, so the caller simply does the work.
 */
export function restoreFolder(kind, name, key, target) {
  const source = entryDir(kind, name, key);
  if (!source || !existsSync(path.join(source, '.complete'))) return false;
  try {
    rmSync(target, { recursive: true, force: true });
    const marker = path.join(source, '.complete');
    cpSync(source, target, { recursive: true, filter: (file) => file !== marker });
    // Used now: the newest entries are the ones kept.
    const now = new Date();
    utimesSync(source, now, now);
    return true;
  } catch {
    rmSync(target, { recursive: true, force: true });
    return false;
  }
}

/**
 * Keeps a copy of `source` as `kind/name/key`: written beside and renamed when whole, so a
 * reader never sees half of it. The oldest entries of that name beyond KEEP are removed.
 */
export function saveFolder(kind, name, key, source) {
  const target = entryDir(kind, name, key);
  if (!target || !existsSync(source)) return;
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    rmSync(temporary, { recursive: true, force: true });
    cpSync(source, temporary, { recursive: true });
    // The marker last: an entry without it is a copy cut short and is never restored.
    writeFileSync(path.join(temporary, '.complete'), `${new Date().toISOString()}\n`);
    rmSync(target, { recursive: true, force: true });
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { recursive: true, force: true });
    return;
  }
  prune(path.dirname(target));
}

function prune(dir) {
  let entries;
  try {
    entries = readdirSync(dir)
      .filter((entry) => !entry.endsWith('.tmp'))
      .map((entry) => ({ entry, at: statSync(path.join(dir, entry)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
  } catch {
    return;
  }
  for (const { entry } of entries.slice(KEEP)) {
    rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}
