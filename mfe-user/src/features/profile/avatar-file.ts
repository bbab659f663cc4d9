import { MAX_IMAGE_UPLOAD_BYTES } from '@kol/shared-sdk';

/** Largest image a user may upload, as the server's upload route enforces it. */
export const MAX_AVATAR_BYTES = MAX_IMAGE_UPLOAD_BYTES;

/** The image types `/api/file/upload_image` accepts (its contract: JPEG, PNG, WebP). */
export const AVATAR_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Why a file cannot be an avatar, in Chinese, or null when it can. */
export function avatarFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(AVATAR_MIME_TYPES as readonly string[]).includes(file.type)) {
    return '仅支持 JPEG、PNG、WebP 格式的图片';
  }
  if (file.size > MAX_AVATAR_BYTES) return '图片不能超过 5 MB';
  return null;
}
