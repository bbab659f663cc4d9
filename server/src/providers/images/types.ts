/** What a provider is asked to draw: one picture, whole prompt already built (see prompt.ts). */
export interface ImageRequest {
  prompt: string;
  negativePrompt?: string;
  /** The picture wanted, in pixels; a provider draws its nearest supported size. */
  width: number;
  height: number;
  /** Fixed per role, so a role drawn again looks the same where the provider honours seeds. */
  seed: number;
  /** The lead role's reference picture (a file of the data dir), for workflows that take one. */
  referenceImagePath?: string;
  /**
   * Every present role's reference picture, lead first: the OpenAI images edit endpoint draws
   * from all of them (each role keeps its face).
   */
  referenceImagePaths?: string[];
}

/** An image service behind an interface; the local frame renderer is the fallback (draw.ts). */
export interface ImageProvider {
  /** Short machine name: `openai` or `comfyui`. */
  name: string;
  /** Shown to the user as the engine that drew the picture (Chinese). */
  label: string;
  /** Answers the encoded picture (PNG, JPEG or WebP); throws ProviderError in Chinese. */
  draw(request: ImageRequest, signal: AbortSignal): Promise<Buffer>;
}

/** The format of encoded picture bytes by their signature; null when they are not a picture. */
export function pictureFormat(bytes: Buffer): 'png' | 'jpeg' | 'webp' | null {
  if (bytes.length < 12) return null;
  if (bytes.readUInt32BE(0) === 0x89504e47) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}

/** What to check when an image service rejects a request. */
export const IMAGE_REJECTED = '模型名称、尺寸与画面描述';
