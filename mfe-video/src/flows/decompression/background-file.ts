import { MAX_MEDIA_UPLOAD_MS, MAX_VIDEO_UPLOAD_BYTES } from '@kol/shared-sdk';

/**
 * What an uploaded background takes: a video (`upload_media`) within the limits the server
 * applies (the SDK's constants, which the server checks with too). Checked here first so the
 * creator hears what is wrong before anything is sent; the server checks the bytes again.
 */

const MB = 1024 * 1024;
const VIDEO_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'];
const VIDEO_EXTENSIONS = /\.(mp4|mov|webm|mkv)$/i;
const MINUTES = MAX_MEDIA_UPLOAD_MS / 60_000;

export const BACKGROUND_FILE_ACCEPT = [...VIDEO_MIME_TYPES, '.mp4', '.mov', '.webm', '.mkv'].join(
  ',',
);

/** The limits as the page states them before an upload. */
export const BACKGROUND_FILE_LIMITS = `视频：MP4、MOV、WebM、MKV，不超过 ${
  MAX_VIDEO_UPLOAD_BYTES / MB
} MB，时长不超过 ${MINUTES} 分钟；画面循环播放，声音不使用`;

function isVideo(file: Pick<File, 'type' | 'name'>): boolean {
  const type = file.type.toLowerCase();
  if (VIDEO_MIME_TYPES.includes(type)) return true;
  const untyped = type === '' || type === 'application/octet-stream';
  return untyped && VIDEO_EXTENSIONS.test(file.name);
}

/** Why a file cannot be a background, in Chinese naming it; null when it can. */
export function backgroundFileProblem(
  file: Pick<File, 'type' | 'name' | 'size'>,
  durationMs: number | null = null,
): string | null {
  if (!isVideo(file)) {
    if (file.type.startsWith('image/')) {
      return `「${file.name}」是图片：背景只能用视频（MP4、MOV、WebM、MKV）`;
    }
    return `「${file.name}」的格式不支持：背景只能用 MP4、MOV、WebM、MKV 视频`;
  }
  if (file.size === 0) return `「${file.name}」是空文件，请重新选择`;
  if (file.size > MAX_VIDEO_UPLOAD_BYTES) {
    return `视频「${file.name}」有 ${(file.size / MB).toFixed(1)} MB，超过 ${
      MAX_VIDEO_UPLOAD_BYTES / MB
    } MB 的上限，请剪短或压缩后再上传`;
  }
  if (durationMs !== null && durationMs > MAX_MEDIA_UPLOAD_MS) {
    return `视频「${file.name}」时长 ${(durationMs / 60_000).toFixed(1)} 分钟，超过 ${MINUTES} 分钟的上限，请剪短后再上传`;
  }
  return null;
}

/**
 * The file's length as the browser reads it, or null when it cannot tell (then the server's
 * probe decides). Read before sending, so a 30-minute clip is refused without 200 MB uploaded.
 */
export function probeVideoDurationMs(file: File, timeoutMs = 5000): Promise<number | null> {
  if (typeof URL.createObjectURL !== 'function') return Promise.resolve(null);
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const done = (value: number | null) => {
      clearTimeout(timer);
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    video.preload = 'metadata';
    video.onloadedmetadata = () =>
      done(Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : null);
    video.onerror = () => done(null);
    video.src = url;
  });
}
