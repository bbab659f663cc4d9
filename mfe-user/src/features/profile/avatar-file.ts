/**
 * Largest image a user may upload. The contract declares it as `MAX_IMAGE_UPLOAD_BYTES` in
 * shared-sdk `contracts/role.ts`, but the package root exports contracts as types only and
 * browser code must not load the contracts (typebox) at run time, so it is re-declared here;
 * a test keeps the two equal.
 */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

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
