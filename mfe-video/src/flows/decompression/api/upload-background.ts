import { uploadMedia, type UploadedMedia } from '@kol/shared-sdk';

/**
 * Sends a background video (`upload_media`), reporting the percent sent. A file the server
 * found to hold only sound is refused here: a background needs a picture.
 */
export async function uploadBackground(
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadedMedia> {
  const answer = await uploadMedia(file, file.name, {
    onUploadProgress: onProgress,
    kind: 'video',
  });
  if (answer.kind !== 'video') {
    throw new Error(`「${file.name}」里没有画面：背景只能用视频`);
  }
  return answer;
}
