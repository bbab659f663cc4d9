import { rm } from 'node:fs/promises';
import type { MediaStore } from '../storage';

/**
 * Puts a file this process has just written into the store under `key`, so any API or worker
 * process can read it. Written at the store's own place (the embedded local folder), the put
 * is a no-op and the file stays; on an object store the local file was only this process's
 * copy in its cache folder and is removed (a reader that needs a file asks `store.cached`).
 */
export async function keepInStore(store: MediaStore, key: string, file: string): Promise<void> {
  try {
    await store.putFile(key, file);
  } finally {
    // Stored or not, a copy would only fill the cache folder.
    if (store.localPath(key) === null) await rm(file, { force: true });
  }
}
