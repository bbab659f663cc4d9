import { IMAGE_UPLOAD_MIME_TYPES, imageUploadProblem } from '@kol/shared-sdk';

/** The file chooser's filter (only a filter: `picturesProblem` decides). */
export const PICTURE_ACCEPT = IMAGE_UPLOAD_MIME_TYPES.join(',');

/**
 * Why a chosen file cannot be one of the video's pictures, in Chinese naming it, or null: the
 * SDK's check (the kinds and the size the server takes), so nothing wrong is sent.
 */
export function pictureProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  if (file.type.startsWith('video/') || file.type.startsWith('audio/')) {
    return `「${file.name}」不是图片：营销视频的画面只用图片，请选择 JPEG、PNG 或 WebP`;
  }
  const problem = imageUploadProblem(file);
  if (problem) return `「${file.name}」无法上传：${problem}`;
  if (file.size === 0) return `「${file.name}」是空文件，请重新选择`;
  return null;
}
