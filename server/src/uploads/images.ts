import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

export class UploadRefused extends Error {
  constructor(readonly reason: 'type' | 'size') {
    super(reason);
  }
}

/**
 * Writes an uploaded stream to a temporary file in `dir`, checks what it is, and renames it
 * to a random name with the right extension. Nothing is left behind when it is refused.
 * `truncated()` tells whether the multipart parser cut the file at its size limit.
 */
export async function storeImage(
  stream: Readable,
  dir: string,
  truncated: () => boolean,
): Promise<{ name: string; extension: ImageExtension }> {
  await mkdir(dir, { recursive: true });
  const id = randomBytes(16).toString('hex');
  const temp = path.join(dir, `.tmp-${id}`);
  try {
    await pipeline(stream, createWriteStream(temp, { flags: 'wx' }));
    if (truncated()) throw new UploadRefused('size');
    const handle = await open(temp, 'r');
    const head = Buffer.alloc(12);
    try {
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
    const extension = imageTypeOf(head);
    if (!extension) throw new UploadRefused('type');
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
