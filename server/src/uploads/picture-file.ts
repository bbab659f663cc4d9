import { pathSegments } from '../http/static-files';
import type { MediaStore } from '../storage';

const PICTURE = /\.(jpe?g|png|webp)$/i;
/** A shot's clip (kit/clips.ts): generated only, never uploaded. */
const CLIP = /\.mp4$/i;

/** Where pictures are read from: the media stores (a pipeline's options fit as they are). */
export interface PictureDirs {
  stores: {
    media: MediaStore;
    /** Uploaded images (`/uploads/<name>`); absent: only generated pictures resolve. */
    uploads?: MediaStore;
  };
}

/**
 * The store and key behind a picture URL of this user: a generated one (`/media/<userId>/…`) or
 * an uploaded one (`/uploads/<name>`; the caller checks that the upload is the user's). Null for
 * anything else, another user's media or a path that climbs out. Whether it exists is not known.
 */
function pictureKey(
  url: string,
  userId: number,
  dirs: PictureDirs,
  kind: RegExp = PICTURE,
): { store: MediaStore; key: string } | null {
  if (!kind.test(url.split('?', 1)[0] ?? '')) return null;
  const media = pathSegments(url, '/media/');
  if (media) {
    if (media.length < 2 || media[0] !== String(userId)) return null;
    return { store: dirs.stores.media, key: media.join('/') };
  }
  if (kind === CLIP) return null;
  const upload = pathSegments(url, '/uploads/');
  const name = upload?.length === 1 ? upload[0] : undefined;
  return name && dirs.stores.uploads ? { store: dirs.stores.uploads, key: name } : null;
}

/**
 * The local file behind a picture URL of this user (see pictureKey), null when there is none.
 * With an object store it is a copy in this process's cache folder, so a worker on another
 * machine reads what an API process stored.
 */
export async function pictureFile(
  url: string,
  userId: number,
  dirs: PictureDirs,
): Promise<string | null> {
  const found = pictureKey(url, userId, dirs);
  return found ? found.store.cached(found.key) : null;
}

/** The local file behind a shot's clip URL of this user (`/media/<userId>/….mp4`), as pictureFile. */
export async function clipFile(
  url: string,
  userId: number,
  dirs: PictureDirs,
): Promise<string | null> {
  const found = pictureKey(url, userId, dirs, CLIP);
  return found ? found.store.cached(found.key) : null;
}

/** Whether a picture URL of this user is there, without fetching it (checks of a request). */
export async function pictureStored(
  url: string,
  userId: number,
  dirs: PictureDirs,
): Promise<boolean> {
  const found = pictureKey(url, userId, dirs);
  return found !== null && (await found.store.stat(found.key)) !== null;
}
