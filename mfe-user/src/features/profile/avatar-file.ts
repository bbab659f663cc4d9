import {
  IMAGE_UPLOAD_MIME_TYPES,
  MAX_IMAGE_UPLOAD_BYTES,
  imageUploadProblem,
} from '@kol/shared-sdk';

/** Largest image a user may upload, as the server's upload route enforces it. */
export const MAX_AVATAR_BYTES = MAX_IMAGE_UPLOAD_BYTES;

/** The image types `/api/file/upload_image` accepts (its contract: JPEG, PNG, WebP). */
export const AVATAR_MIME_TYPES = IMAGE_UPLOAD_MIME_TYPES;

/** Why a file cannot be an avatar, in Chinese, or null when it can. */
export const avatarFileProblem = imageUploadProblem;
