import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  MAX_AUDIO_UPLOAD_BYTES,
  MAX_MEDIA_UPLOAD_MS,
  MAX_VIDEO_UPLOAD_BYTES,
} from '@kol/shared-sdk/contracts';
import {
  FfmpegTimeout,
  probeWithFfmpeg,
  type FfmpegOptions,
  type MediaInfo,
} from '../video/engine/ffmpeg';

/** Extensions a stored video or audio upload may have (see STORED_UPLOAD_NAME). */
export const MEDIA_EXTENSIONS = ['mp4', 'mov', 'webm', 'mkv', 'mp3', 'm4a', 'wav', 'ogg'] as const;
export type MediaExtension = (typeof MEDIA_EXTENSIONS)[number];
export type MediaKind = 'video' | 'audio';

/**
 * The container by its first bytes (the name and the declared type are the sender's word).
 * `kinds`: what the container may hold. MP4 and Matroska carry either video or audio, so for
 * those the probed streams decide; MP3, WAV and Ogg are taken as audio only.
 */
interface ContainerGuess {
  /** Extension when the file turns out to be a video / an audio file. */
  video?: MediaExtension;
  audio?: MediaExtension;
}

const ascii = (head: Buffer, from: number, to: number) =>
  head.subarray(from, to).toString('latin1');

export function containerOf(head: Buffer): ContainerGuess | null {
  // ISO base media (MP4, MOV, M4A): a box of type `ftyp` first, its major brand after it.
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (/^M4[ABP] $/.test(brand)) return { audio: 'm4a' };
    return { video: brand === 'qt  ' ? 'mov' : 'mp4', audio: 'm4a' };
  }
  // Old QuickTime files start with another top-level atom.
  if (['moov', 'mdat', 'wide', 'free'].includes(ascii(head, 4, 8))) return { video: 'mov' };
  // EBML (Matroska, WebM): the doc type string sits in the header's first bytes.
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) {
    const webm = head.subarray(0, 64).includes('webm', 0, 'latin1');
    return webm ? { video: 'webm', audio: 'webm' } : { video: 'mkv', audio: 'mkv' };
  }
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return { audio: 'wav' };
  if (ascii(head, 0, 4) === 'OggS') return { audio: 'ogg' };
  // MP3: an ID3 tag, or a bare MPEG audio frame (sync bits, and a layer: ADTS AAC has none).
  if (ascii(head, 0, 3) === 'ID3') return { audio: 'mp3' };
  const [b0 = 0, b1 = 0] = head;
  if (b0 === 0xff && (b1 & 0xe0) === 0xe0 && ((b1 >> 1) & 0x03) !== 0) return { audio: 'mp3' };
  return null;
}

/**
 * How long the probe of an upload may take before ffmpeg is killed. A real file's headers read
 * in well under a second even at 200 MB; a file built to stall the demuxer must not hold the
 * request (or an ffmpeg process) for longer.
 */
export const MEDIA_PROBE_TIMEOUT_MS = 20_000;

const MB = 1024 * 1024;
const MINUTES = Math.round(MAX_MEDIA_UPLOAD_MS / 60_000);
const LIMIT = { video: MAX_VIDEO_UPLOAD_BYTES, audio: MAX_AUDIO_UPLOAD_BYTES } as const;
const WORD = { video: '视频', audio: '音频' } as const;

/** A refused upload, with the Chinese message naming why and the HTTP status to answer. */
export class MediaRefused extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'MediaRefused';
  }
}

/** The formats of each kind, as a refusal lists them. */
const FORMATS = { video: 'MP4、MOV、WebM、MKV 视频', audio: 'MP3、M4A、WAV、OGG 音频' } as const;

/** The formats a page takes (`accept`), or both kinds when it takes either. */
export const acceptedFormats = (accept?: MediaKind) =>
  accept ? FORMATS[accept] : `${FORMATS.video}或 ${FORMATS.audio}`;

/** How a refusal names the file: its own name as the user chose it, else 「文件」. */
export function quotedName(fileName: string | undefined): string {
  const base = (fileName ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const name = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name) return '「文件」';
  return `「${name.length > 60 ? `${name.slice(0, 59)}…` : name}」`;
}

/** A file not recognised as any format: named, with the formats the page takes. */
export const mediaTypeMessage = (fileName?: string, accept?: MediaKind) =>
  `${quotedName(fileName)}格式不支持，请上传 ${acceptedFormats(accept)}`;
const sizeMessage = (kind: MediaKind) => `${WORD[kind]}不能超过 ${LIMIT[kind] / MB} MB`;

/** The guess narrowed to the kind the page takes (an MP4 of sound alone is no video). */
function onlyKind(guess: ContainerGuess, accept: MediaKind | undefined): ContainerGuess {
  if (accept === 'video') return guess.video ? { video: guess.video } : {};
  if (accept === 'audio') return guess.audio ? { audio: guess.audio } : {};
  return guess;
}

/**
 * Which kind the probed file is, given what its container may hold. A video must have a
 * picture; an audio file must have sound (a cover picture in an MP3 does not make it a video).
 */
function kindOf(guess: ContainerGuess, info: MediaInfo): MediaKind | null {
  if (guess.video && info.video) return 'video';
  if (guess.audio && info.audio) return 'audio';
  return null;
}

/**
 * Writes an uploaded stream to a temporary file in `dir` (never whole in memory), checks what
 * it is by its bytes and by ffmpeg (the expected stream, a duration from just above zero to
 * MAX_MEDIA_UPLOAD_MS, the size limit of its kind), and renames it to a random name with the
 * right extension. Nothing is left behind when it is refused. `truncated()` tells whether the
 * multipart parser cut the file at its (largest) size limit.
 */
export async function storeMedia(
  stream: Readable,
  dir: string,
  truncated: () => boolean,
  options: FfmpegOptions & {
    /** The file's name as the user chose it: refusals name it. */
    fileName?: string;
    /** The one kind the uploading page takes (a background, a scene: video); absent: either. */
    accept?: MediaKind;
  } = {},
): Promise<{
  name: string;
  extension: MediaExtension;
  kind: MediaKind;
  durationMs: number;
  /** SHA-256 of the bytes, hex: the same file uploaded again is the same asset. */
  sha256: string;
}> {
  await mkdir(dir, { recursive: true });
  const id = randomBytes(16).toString('hex');
  const temp = path.join(dir, `.tmp-${id}`);
  const digest = createHash('sha256');
  const { fileName, accept, ...ffmpeg } = options;
  try {
    // Hashed as it is written: a 200 MB file is never read a second time for it.
    await pipeline(
      stream,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          digest.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(temp, { flags: 'wx' }),
    );
    const handle = await open(temp, 'r');
    const head = Buffer.alloc(64);
    try {
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
    const guess = containerOf(head);
    if (!guess) throw new MediaRefused(400, mediaTypeMessage(fileName, accept));
    // A container that cannot hold the kind the page takes (an MP3 for a background).
    if (accept && !guess[accept]) {
      throw new MediaRefused(
        400,
        `${quotedName(fileName)}是${accept === 'video' ? '音频' : '视频'}，请上传 ${FORMATS[accept]}`,
      );
    }
    // Cut at the largest limit: the container says which limit it broke.
    if (truncated()) throw new MediaRefused(413, sizeMessage(guess.video ? 'video' : 'audio'));

    const expected = WORD[accept ?? (guess.video ? 'video' : 'audio')];
    const timeoutMs = ffmpeg.timeoutMs ?? MEDIA_PROBE_TIMEOUT_MS;
    const info = await probeWithFfmpeg(temp, { ...ffmpeg, timeoutMs }).catch((error: unknown) => {
      if (error instanceof FfmpegTimeout) {
        throw new MediaRefused(
          400,
          `读取该${expected}文件超过 ${timeoutMs / 1000} 秒仍未完成，文件可能已损坏`,
        );
      }
      return null;
    });
    if (!info) throw new MediaRefused(400, `无法读取该${expected}文件，文件可能已损坏`);
    const kind = kindOf(onlyKind(guess, accept), info);
    if (!kind && accept === 'video') {
      throw new MediaRefused(400, `${quotedName(fileName)}中没有画面，请上传 ${FORMATS.video}`);
    }
    if (!kind) {
      throw new MediaRefused(
        400,
        guess.video ? '文件中没有画面或声音，请上传完整的视频' : '文件中没有声音，请上传完整的音频',
      );
    }
    const { size } = await stat(temp);
    if (size > LIMIT[kind]) throw new MediaRefused(413, sizeMessage(kind));
    const durationMs = info.durationMs;
    if (durationMs === null || durationMs <= 0) {
      throw new MediaRefused(400, `无法读取该${WORD[kind]}的时长，文件可能已损坏或不完整`);
    }
    if (durationMs > MAX_MEDIA_UPLOAD_MS) {
      throw new MediaRefused(400, `${WORD[kind]}时长不能超过 ${MINUTES} 分钟，请剪短后再上传`);
    }
    const extension = (kind === 'video' ? guess.video : guess.audio) as MediaExtension;
    const name = `${id}.${extension}`;
    await rename(temp, path.join(dir, name));
    return { name, extension, kind, durationMs, sha256: digest.digest('hex') };
  } finally {
    await rm(temp, { force: true });
  }
}
