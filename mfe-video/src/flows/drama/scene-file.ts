import {
  IMAGE_UPLOAD_MIME_TYPES,
  MAX_IMAGE_UPLOAD_BYTES,
  MAX_MEDIA_UPLOAD_MS,
  MAX_VIDEO_UPLOAD_BYTES,
} from '@kol/shared-sdk';

/**
 * What a scene takes: a photo (`upload_image`) or a clip (`upload_media`), within the limits the
 * server applies (the SDK's constants, which the server checks with too). Checked here first so
 * the creator hears what is wrong before anything is sent; the server checks the bytes again.
 */

const MB = 1024 * 1024;
const VIDEO_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'];
const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp)$/i;
const VIDEO_EXTENSIONS = /\.(mp4|mov|webm|mkv)$/i;
const AUDIO_EXTENSIONS = /\.(mp3|m4a|wav|ogg|aac|flac)$/i;

/** The file chooser's filter (a filter only: the checks below decide). */
export const SCENE_FILE_ACCEPT = [
  ...IMAGE_UPLOAD_MIME_TYPES,
  ...VIDEO_MIME_TYPES,
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
  '.mp4',
  '.mov',
  '.webm',
  '.mkv',
].join(',');

/** The limits as the page states them before an upload. */
export const SCENE_FILE_LIMITS = {
  image: `照片：JPEG、PNG、WebP，不超过 ${MAX_IMAGE_UPLOAD_BYTES / MB} MB`,
  video: `视频：MP4、MOV、WebM、MKV，不超过 ${MAX_VIDEO_UPLOAD_BYTES / MB} MB，时长不超过 ${
    MAX_MEDIA_UPLOAD_MS / 60_000
  } 分钟`,
};

export type SceneFileKind = 'image' | 'video';

/** A photo or a clip by its declared type, or by its name when the browser declares none. */
export function sceneFileKind(file: Pick<File, 'type' | 'name'>): SceneFileKind | null {
  const type = file.type.toLowerCase();
  if ((IMAGE_UPLOAD_MIME_TYPES as readonly string[]).includes(type)) return 'image';
  if (VIDEO_MIME_TYPES.includes(type)) return 'video';
  const untyped = type === '' || type === 'application/octet-stream';
  if (untyped && IMAGE_EXTENSIONS.test(file.name)) return 'image';
  if (untyped && VIDEO_EXTENSIONS.test(file.name)) return 'video';
  return null;
}

const sizeOf = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** Why a file cannot be a scene's clip or photo, in Chinese naming it; null when it can. */
export function sceneFileProblem(file: Pick<File, 'type' | 'name' | 'size'>): string | null {
  const kind = sceneFileKind(file);
  if (!kind) {
    if (file.type.startsWith('audio/') || AUDIO_EXTENSIONS.test(file.name)) {
      return `「${file.name}」是音频：场景只能用视频或照片，台词的声音由配音生成`;
    }
    return `「${file.name}」的格式不支持：请上传 JPEG、PNG、WebP 照片或 MP4、MOV、WebM、MKV 视频`;
  }
  if (kind === 'image' && file.size > MAX_IMAGE_UPLOAD_BYTES) {
    return `照片「${file.name}」有 ${sizeOf(file.size)}，超过 ${MAX_IMAGE_UPLOAD_BYTES / MB} MB 的上限，请压缩后再上传`;
  }
  if (kind === 'video' && file.size > MAX_VIDEO_UPLOAD_BYTES) {
    return `视频「${file.name}」有 ${sizeOf(file.size)}，超过 ${MAX_VIDEO_UPLOAD_BYTES / MB} MB 的上限，请剪短或压缩后再上传`;
  }
  if (file.size === 0) return `「${file.name}」是空文件，请重新选择`;
  return null;
}
