import { pathSegments, resolveInside } from '../http/static-files';

const PICTURE = /\.(jpe?g|png|webp)$/i;

export interface PictureDirs {
  mediaDir: string;
  /** Uploaded images (`/uploads/<name>`); absent: only generated pictures resolve. */
  uploadsDir?: string;
}

/**
 * The file behind a picture URL of this user: a generated one (`/media/<userId>/…`) or an
 * uploaded one (`/uploads/<name>`; the caller checks that the upload is the user's). Null for
 * anything else, another user's media, a missing file or a path that climbs out.
 */
export async function pictureFile(
  url: string,
  userId: number,
  dirs: PictureDirs,
): Promise<string | null> {
  if (!PICTURE.test(url.split('?', 1)[0] ?? '')) return null;
  const media = pathSegments(url, '/media/');
  if (media) {
    if (media.length < 2 || media[0] !== String(userId)) return null;
    return resolveInside(dirs.mediaDir, media);
  }
  const upload = pathSegments(url, '/uploads/');
  if (upload && upload.length === 1 && dirs.uploadsDir) {
    return resolveInside(dirs.uploadsDir, upload);
  }
  return null;
}
