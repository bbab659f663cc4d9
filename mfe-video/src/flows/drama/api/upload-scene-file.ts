import { uploadImage, uploadMedia } from '@kol/shared-sdk';
import type { SceneFileKind } from '../scene-file';

/**
 * Sends a scene's photo (`upload_image`) or clip (`upload_media`), reporting the percent sent.
 * Answers where the server keeps it. A media upload the server found to be audio is refused here,
 * as the drama's render would refuse it later.
 */
export async function uploadSceneFile(
  file: File,
  kind: SceneFileKind,
  onProgress: (percent: number) => void,
): Promise<{ url: string; kind: SceneFileKind }> {
  if (kind === 'image') {
    const { url } = await uploadImage(file, file.name, { onUploadProgress: onProgress });
    return { url, kind };
  }
  const answer = await uploadMedia(file, file.name, {
    onUploadProgress: onProgress,
    kind: 'video',
  });
  if (answer.kind !== 'video') {
    throw new Error(`「${file.name}」里没有画面：场景只能用视频或照片`);
  }
  return { url: answer.url, kind: 'video' };
}
