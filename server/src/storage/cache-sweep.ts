import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A copy unused this long goes: a task reads its inputs within minutes of fetching them. */
export const COPY_MAX_AGE_MS = 6 * 3600_000;
const SWEEP_EVERY_MS = 15 * 60_000;

/**
 * Removes the copies of an object store's keys (`store.cached`, under AppConfig.storeCacheDir)
 * that were not used for `maxAgeMs`: a hit renews a copy's time, so what is read often stays.
 * Without it a long-lived worker's disk fills with every upload it ever read. A copy removed
 * while a reader holds it open stays readable for that reader (the file system keeps it until
 * closed), and the next `cached` fetches it again. Answers how many files went.
 */
export async function sweepCopies(dir: string, maxAgeMs = COPY_MAX_AGE_MS, now = Date.now()) {
  let removed = 0;
  const walk = async (folder: string): Promise<boolean> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => null);
    if (!entries) return false;
    let empty = true;
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (await walk(full)) await rmdir(full).catch(() => {});
        else empty = false;
        continue;
      }
      const info = await stat(full).catch(() => null);
      if (info && now - info.mtimeMs > maxAgeMs) {
        await rm(full, { force: true });
        removed += 1;
      } else {
        empty = false;
      }
    }
    return empty;
  };
  await walk(dir);
  return removed;
}

/** Sweeps `dir` now and then in the background (an API or worker process with an object store). */
export function startCopiesSweep(
  dir: string,
  onError: (error: unknown) => void,
  everyMs = SWEEP_EVERY_MS,
): () => void {
  const timer = setInterval(() => {
    sweepCopies(dir).catch(onError);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
