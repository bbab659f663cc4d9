/** Business constants of spec section 9. */
export const REQUEST_TIMEOUT_MS = 240_000;
export const NOTICE_PAGE_SIZE = 1000;
export const MOBILE_BREAKPOINT_PX = 768;
export const MODAL_DEFAULT_WIDTH = 520;
export const POSTING_ACCOUNT_PROMPT_DELAY_MS = 20;
/** Fallback message when a failed answer carries no `msg` (spec section 7). */
export const REQUEST_FAILED_MESSAGE = '请求失败';
/**
 * The text of a generation streams as server-sent events from this path (`?taskId=`), outside the
 * JSON envelope: event `delta` with `{ text }` (the new piece), then `done` with `{ result }` (the
 * final TextResult), or `error` with `{ message }`. A client that connects late first receives
 * the text so far as one `delta`.
 */
export const WRITING_STREAM_PATH = '/api/writing/gen_stream';
/**
 * Progress of a work's video (or merge) task as server-sent events (`?workId=`), outside the
 * JSON envelope: event `progress` with a WorkResult each time the stage or percentage changes,
 * then `done` with the final WorkResult (succeeded, failed or cancelled) and the stream ends.
 * A work with nothing running answers `done` at once.
 */
export const VIDEO_PROGRESS_STREAM_PATH = '/api/video/progress_stream';
/**
 * A series' progress as server-sent events (`?seriesId=`): `progress` with a SeriesDetail on
 * every change while an episode waits or runs, then `done` with the last one, and it ends.
 */
export const SERIES_PROGRESS_STREAM_PATH = '/api/series/progress_stream';
/** A series' finished episodes as one ZIP (`?seriesId=`): an MP4 and an SRT each, streamed. */
export const SERIES_DOWNLOAD_PATH = '/api/series/download';
/**
 * A finished video as a project an editor opens, streamed as a ZIP (`?workId=&format=`, and
 * `taskId=` for one render): `jianying`, one 剪映 / CapCut draft folder whose media paths are
 * written for the user's drafts folder (their `draftPath`); `mlt`, a Shotcut / Kdenlive project
 * (`.mlt`) with its media beside it.
 */
export const EXPORT_PROJECT_PATH = '/api/video/export_project';
/** Largest book a user may upload (TXT in UTF-8 or GB18030, or EPUB). */
export const MAX_BOOK_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Largest image a user may upload (avatars, role references). */
export const MAX_IMAGE_UPLOAD_BYTES = 5 * 1024 * 1024;
// The media limits live here, beside the image one, so the browser can show and check them before
// an upload (it imports values only from the package root, never the contracts' schemas).
/** Largest video a user may upload (reverse videos, background material, drama scenes). */
export const MAX_VIDEO_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Largest audio file a user may upload (music, voice). */
export const MAX_AUDIO_UPLOAD_BYTES = 30 * 1024 * 1024;
/** Longest video or audio upload: a short-video tool has no use for more. */
export const MAX_MEDIA_UPLOAD_MS = 10 * 60 * 1000;

/**
 * The request header of an idempotent call's key (EndpointDef.idempotent): at most
 * IDEMPOTENCY_KEY_MAX_CHARS letters, digits and `-_.:`. The server keeps a key's answer for
 * IDEMPOTENCY_KEY_TTL_MS; the SDK gives a repeat of the same call (same endpoint and input) the
 * same key while the first is in flight and for IDEMPOTENCY_REUSE_MS after it settled.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_CHARS = 128;
export const IDEMPOTENCY_KEY_TTL_MS = 10 * 60 * 1000;
export const IDEMPOTENCY_REUSE_MS = 5_000;

/** Key prefix of every value the browser remembers (spec section 3). */
export const STORAGE_PREFIX = 'KOL_';

/** The music's gain under the narration when a cut video does not set one (0 to 1). */
export const MUSIC_VOLUME_DEFAULT = 0.35;

/**
 * The integrated loudness every video is mixed to (EBU R128, the short-video platforms' level);
 * the quality report flags a video more than 1 LU from it.
 */
export const TARGET_LOUDNESS_LUFS = -16;
/** The highest true peak the quality report lets pass (above it, lossy re-encodes clip). */
export const MAX_TRUE_PEAK_DBTP = -1;

/**
 * What a creator does about a quality report's problem (its `problems[].action`), as the pages
 * name it: an image or speech service is configured by whoever runs the installation; a picture
 * is redrawn on the page of its shots.
 */
export const QUALITY_ACTION_LABELS = {
  configureImages: '配置图像服务',
  regeneratePictures: '重新生成画面',
  regenerateClips: '重新生成动态镜头',
  configureVoice: '配置语音服务',
} as const;
export type QualityAction = keyof typeof QUALITY_ACTION_LABELS;
/**
 * Who does a quality action that is not the creator's (a service is configured by the
 * installation's administrator, in the server's settings): said beside the action's name.
 */
export const QUALITY_ACTION_HINTS: Partial<Record<QualityAction, string>> = {
  configureImages:
    '图像服务由管理员在服务器设置中配置（IMAGE_BASE_URL 或 COMFYUI_URL），配置后重新生成',
  configureVoice: '语音服务由管理员在服务器设置中配置（TTS_BASE_URL），配置后重新生成',
};

/** The picture types `/api/file/upload_image` accepts (the server checks the bytes too). */
export const IMAGE_UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/**
 * Why a file cannot be uploaded as a picture, in Chinese, or null when it can: checked in the
 * browser first, so the user hears it before anything is sent.
 */
export function imageUploadProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(IMAGE_UPLOAD_MIME_TYPES as readonly string[]).includes(file.type)) {
    return '仅支持 JPEG、PNG、WebP 格式的图片';
  }
  if (file.size > MAX_IMAGE_UPLOAD_BYTES) {
    return `图片不能超过 ${MAX_IMAGE_UPLOAD_BYTES / 1024 / 1024} MB`;
  }
  return null;
}

/**
 * Chinese names of the video task stages: the server names a failed stage with them in its
 * messages, and the pages show the running one.
 */
export const STAGE_NAMES: Readonly<Record<string, string>> = {
  script: '文案',
  shots: '分镜',
  roles: '角色',
  images: '画面',
  voice: '配音',
  clips: '动态镜头',
  captions: '字幕',
  music: '音乐',
  compose: '合成',
  merge: '合成',
  speech: '配音',
};
