/**
 * What a video provider is asked for: one shot's picture brought to motion (image to video).
 * The prompt says what moves and how the camera goes (kit/clips.ts builds it).
 */
export interface ClipRequest {
  prompt: string;
  negativePrompt?: string;
  /** The shot's picture (a JPEG of the task's files): the clip's first frame. */
  imagePath: string;
  /** The video's frame; a provider makes its nearest supported size (the compose covers it). */
  width: number;
  height: number;
  /** How long the shot lasts; a provider makes its nearest supported length. */
  durationMs: number;
  /** The shot's seed (its lead role's, else the shot's own), where the provider takes one. */
  seed: number;
}

/** An image-to-video service behind an interface; the still with pan and zoom is the fallback. */
export interface VideoProvider {
  /** Short machine name: `openai` or `comfyui`. */
  name: string;
  /** Shown to the user as the engine that made the clip (Chinese). */
  label: string;
  /** Answers the encoded clip (MP4, WebM, animated WebP or GIF); throws ProviderError in Chinese. */
  animate(request: ClipRequest, signal: AbortSignal): Promise<Buffer>;
}

/** The container of encoded clip bytes by their signature; null when they are not a video. */
export function clipFormat(bytes: Buffer): 'mp4' | 'webm' | 'webp' | 'gif' | null {
  if (bytes.length < 12) return null;
  if (bytes.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  if (bytes.toString('latin1', 0, 4) === 'GIF8') return 'gif';
  return null;
}

/** What to check when a video service rejects a request. */
export const VIDEO_REJECTED = '模型名称、尺寸、时长与画面描述';
