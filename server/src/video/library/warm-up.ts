import { BUILTIN_MATERIALS, ensureMaterial, ensureMaterialCover } from './materials';
import { AMBIENT_TRACKS, ensureAmbientTrack } from './music/ambient';
import { musicLibraryDir } from './music/catalog';
import type { MediaStore } from '../../storage';

/**
 * Generates the built-in music tracks and background loops once, one at a time, after the
 * server started (each is kept in the data dir, so later starts find them and do nothing; with
 * an object store, `shared`, a process takes those another process made). A
 * first video then does not wait for them. Each is also generated on first use, so a failure
 * here only costs that wait.
 */
export async function warmUpLibraries(
  mediaDir: string,
  log: { warn(obj: object, msg?: string): void },
  shared?: MediaStore,
): Promise<void> {
  const jobs: Array<() => Promise<unknown>> = [
    ...BUILTIN_MATERIALS.flatMap((material) => [
      () => ensureMaterialCover(mediaDir, material, {}, shared),
      () => ensureMaterial(mediaDir, material, {}, shared),
    ]),
    ...AMBIENT_TRACKS.map(
      (track) => () => ensureAmbientTrack(musicLibraryDir(mediaDir), track.id, {}, shared),
    ),
  ];
  for (const job of jobs) {
    try {
      await job();
    } catch (error) {
      log.warn({ err: error }, 'built-in library item could not be generated');
    }
  }
}
