import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FfmpegTimeout, runFfmpeg, type FfmpegOptions } from '../video/engine/ffmpeg';
import { MEDIA_EXTENSIONS } from './media';

export type ImageExtension = 'jpg' | 'png' | 'webp';
const IMAGE_EXTENSIONS: readonly ImageExtension[] = ['jpg', 'png', 'webp'];

/** What the stored name of an upload looks like; anything else under /uploads/ is a 404. */
export const STORED_UPLOAD_NAME = new RegExp(
  `^[0-9a-f]{32}\\.(${[...IMAGE_EXTENSIONS, ...MEDIA_EXTENSIONS].join('|')})$`,
);

/** The image type by its first bytes: the name and the declared type are the sender's word. */
export function imageTypeOf(head: Buffer): ImageExtension | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  return null;
}

/**
 * What a picture may be. Pixels, not bytes, decide what decoding costs: a 5 MB PNG can claim
 * 50000x50000 (10 GB once decoded). A 48-megapixel phone photo passes; the videos are 1080x1920.
 */
export const IMAGE_LIMITS = {
  /** Width times height. */
  pixels: 50_000_000,
  /** Width or height: longer strips are of no use here, and decoders refuse beyond this. */
  side: 16_384,
  /** The decode check (ffmpeg, in its own process) is killed after this long. */
  decodeTimeoutMs: 15_000,
} as const;

export const IMAGE_BROKEN_MESSAGE = '图片已损坏或不完整，无法读取，请重新保存后再上传';
const dimensionsMessage = (size: ImageSize) =>
  `图片尺寸 ${size.width}×${size.height} 过大：宽和高都不能超过 ${IMAGE_LIMITS.side} 像素，` +
  `总像素不能超过 ${IMAGE_LIMITS.pixels / 10_000} 万`;
const decodeTimeoutMessage = (timeoutMs: number) =>
  `读取图片超过 ${timeoutMs / 1000} 秒仍未完成，图片可能已损坏`;

/** A refused image; `message` (Chinese) is set for the reasons the route has no words for. */
export class UploadRefused extends Error {
  constructor(
    readonly reason: 'type' | 'size' | 'dimensions' | 'broken',
    message: string = reason,
  ) {
    super(message);
  }
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height as the file's header states them, read without decoding anything: PNG's
 * IHDR, JPEG's frame header (SOFn, found by walking the segments before it), WebP's VP8, VP8L
 * or VP8X header. Null when the header is missing or cut short.
 */
export function imageSizeOf(bytes: Buffer, type: ImageExtension): ImageSize | null {
  if (type === 'png') {
    if (bytes.length < 24 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (type === 'webp') return webpSizeOf(bytes);
  return jpegSizeOf(bytes);
}

function webpSizeOf(bytes: Buffer): ImageSize | null {
  if (bytes.length < 30) return null;
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return null;
}

function jpegSizeOf(bytes: Buffer): ImageSize | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    at += 2;
    // Markers without a length: start of image, restart markers, TEM.
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    // End of image or start of scan before any frame header: no size to be had.
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = bytes.readUInt16BE(at);
    if (length < 2) return null;
    // SOF0..SOF15 except DHT (c4), JPG (c8) and DAC (cc): length, precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 7 > bytes.length) return null;
      return { width: bytes.readUInt16BE(at + 5), height: bytes.readUInt16BE(at + 3) };
    }
    at += length;
  }
  return null;
}

/** Refuses a size that is missing (a cut header) or beyond IMAGE_LIMITS. */
function checkImageSize(size: ImageSize | null): void {
  if (!size || size.width === 0 || size.height === 0) {
    throw new UploadRefused('broken', IMAGE_BROKEN_MESSAGE);
  }
  if (
    size.width > IMAGE_LIMITS.side ||
    size.height > IMAGE_LIMITS.side ||
    size.width * size.height > IMAGE_LIMITS.pixels
  ) {
    throw new UploadRefused('dimensions', dimensionsMessage(size));
  }
}

/**
 * Decodes the first picture of the file once, in an ffmpeg process (the decoder the videos use
 * later): the header check above trusts the header, this proves the pixels are there. ffmpeg's
 * own `max_pixels` repeats the pixel limit inside the decoder, and the process is killed after
 * IMAGE_LIMITS.decodeTimeoutMs. Nothing of it runs on the server's thread.
 */
async function checkDecodes(file: string, options: FfmpegOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? IMAGE_LIMITS.decodeTimeoutMs;
  try {
    await runFfmpeg(
      [
        ...['-v', 'error', '-max_pixels', String(IMAGE_LIMITS.pixels), '-i', file],
        ...['-frames:v', '1', '-f', 'null', '-'],
      ],
      { ...options, timeoutMs },
    );
  } catch (error) {
    if (error instanceof FfmpegTimeout) {
      throw new UploadRefused('broken', decodeTimeoutMessage(timeoutMs));
    }
    throw new UploadRefused('broken', IMAGE_BROKEN_MESSAGE);
  }
}

/**
 * Writes an uploaded stream to a temporary file in `dir`, checks what it is (type by its first
 * bytes, size by its header, then one real decode: see checkDecodes), and renames it to a random
 * name with the right extension. Nothing is left behind when it is refused. `truncated()` tells
 * whether the multipart parser cut the file at its size limit.
 */
export async function storeImage(
  stream: Readable,
  dir: string,
  truncated: () => boolean,
  options: FfmpegOptions = {},
): Promise<{ name: string; extension: ImageExtension }> {
  await mkdir(dir, { recursive: true });
  const id = randomBytes(16).toString('hex');
  const temp = path.join(dir, `.tmp-${id}`);
  try {
    await pipeline(stream, createWriteStream(temp, { flags: 'wx' }));
    if (truncated()) throw new UploadRefused('size');
    // Whole: the multipart limit keeps it to a few MB, and a JPEG's frame header may come after
    // tens of KB of metadata.
    const bytes = await readFile(temp);
    const extension = imageTypeOf(bytes);
    if (!extension) throw new UploadRefused('type');
    checkImageSize(imageSizeOf(bytes, extension));
    await checkDecodes(temp, options);
    const name = `${id}.${extension}`;
    await rename(temp, path.join(dir, name));
    return { name, extension };
  } finally {
    await rm(temp, { force: true });
  }
}

/** The name the user gave, fit for a list: no folders, no control characters, not too long. */
export function displayName(filename: string, extension: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || `upload.${extension}`).slice(0, 200);
}
