import type { MediaStore } from '../../storage';
import { LocalStore } from '../../storage/local-store';

/**
 * A built-in library file (a music track, a background loop or its cover: made by ffmpeg, the
 * same bytes on every machine) shared through the media store under `library/<name>`: a process
 * that needs it takes the store's copy when another process made it already, and one that makes
 * it puts it there for the others. On the local folder store the library is in that folder
 * already: nothing to share.
 */
export async function sharedLibraryFile(
  store: MediaStore | undefined,
  key: string,
  file: string,
  make: () => Promise<void>,
): Promise<void> {
  const shared = store && !(store instanceof LocalStore) ? store : undefined;
  if (shared && (await shared.download(key, file))) return;
  await make();
  await shared?.putFile(key, file);
}
