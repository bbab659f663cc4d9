import { MAX_MEDIA_UPLOAD_MS, MAX_VIDEO_UPLOAD_BYTES } from '@kol/shared-sdk';

/**
 * What a reverse video's source takes: one clip (`upload_media`), within the limits the server
 * applies (the SDK's constants). Checked here first so the creator hears what is wrong before
 * 200 MB are sent; the server checks the bytes again.
 */

/**
 * An uploaded clip as a draft keeps it: the reverse video's source (`KOL_CONVERT_DRAFT`), the
 * clip the de-dup settings are previewed on (`KOL_DEDUP_EDIT`).
 */
export interface SourceClip {
  url: string;
  name: string;
  durationMs: number | null;
}

const MB = 1024 * 1024;
const VIDEO_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'];
const VIDEO_EXTENSIONS = /\.(mp4|mov|webm|mkv)$/i;

export const SOURCE_FILE_ACCEPT = [...VIDEO_MIME_TYPES, '.mp4', '.mov', '.webm', '.mkv'].join(',');

export const SOURCE_FILE_LIMITS = `MP4、MOV、WebM、MKV 视频，不超过 ${MAX_VIDEO_UPLOAD_BYTES / MB} MB，时长不超过 ${
  MAX_MEDIA_UPLOAD_MS / 60_000
} 分钟`;

const isVideo = (file: Pick<File, 'type' | 'name'>) => {
  const type = file.type.toLowerCase();
  if (VIDEO_MIME_TYPES.includes(type)) return true;
  const untyped = type === '' || type === 'application/octet-stream';
  return untyped && VIDEO_EXTENSIONS.test(file.name);
};

/** Why a file cannot be the source, in Chinese naming it; null when it can (length aside). */
export function sourceFileProblem(file: Pick<File, 'type' | 'name' | 'size'>): string | null {
  if (!isVideo(file)) {
    return `「${file.name}」不是支持的视频：请上传 MP4、MOV、WebM 或 MKV 视频`;
  }
  if (file.size > MAX_VIDEO_UPLOAD_BYTES) {
    return `视频「${file.name}」有 ${(file.size / MB).toFixed(1)} MB，超过 ${MAX_VIDEO_UPLOAD_BYTES / MB} MB 的上限，请剪短或压缩后再上传`;
  }
  if (file.size === 0) return `「${file.name}」是空文件，请重新选择`;
  return null;
}

/** Why a clip of this length cannot be the source; null when it can. */
export function sourceLengthProblem(name: string, durationMs: number): string | null {
  if (durationMs > MAX_MEDIA_UPLOAD_MS) {
    return `视频「${name}」长 ${(durationMs / 60_000).toFixed(1)} 分钟，超过 ${MAX_MEDIA_UPLOAD_MS / 60_000} 分钟的上限，请剪短后再上传`;
  }
  return null;
}
