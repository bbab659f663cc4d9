import { rm } from 'node:fs/promises';
import type { MediaStore } from '../storage';

/**
 * Puts a file this process has just written into the store under `key`, so any API or worker
 * process can read it. Written at the store's own place (the embedded local folder), the put
 * is a no-op; on an object store the local file was only this process's copy in its cache
 * folder and is removed, unless the caller still needs it right after (`keepLocal`: it then
 * stays where `store.cached(key)` finds it).
 */
export async function keepInStore(
  store: MediaStore,
  key: string,
  file: string,
  { keepLocal = false }: { keepLocal?: boolean } = {},
): Promise<void> {
  const copyOnly = store.localPath(key) === null;
  try {
    await store.putFile(key, file);
  } catch (error) {
    // Not stored: the copy would only fill the cache folder.
    if (copyOnly) await rm(file, { force: true });
    throw error;
  }
  if (copyOnly && !keepLocal) await rm(file, { force: true });
}
