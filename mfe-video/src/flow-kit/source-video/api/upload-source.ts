import { uploadMedia } from '@kol/shared-sdk';

/**
 * Sends the source clip (`upload_media`), reporting the percent sent. A file the server found
 * to hold no picture is refused here, as the render would refuse it later.
 */
export async function uploadSource(
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ url: string; durationMs: number }> {
  const answer = await uploadMedia(file, file.name, {
    onUploadProgress: onProgress,
    kind: 'video',
  });
  if (answer.kind !== 'video') throw new Error(`「${file.name}」里没有画面：请上传视频`);
  return { url: answer.url, durationMs: answer.durationMs };
}
