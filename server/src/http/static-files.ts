import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeOf } from '../storage/content-types';
import { LocalStore } from '../storage/local-store';
import type { MediaStore, StoredInfo } from '../storage/media-store';

/**
 * A small static-file sender of our own rather than @fastify/static: that one's current major
 * needs Node 22 (content-disposition 3), and every place we serve files wants its own cache
 * rule and the same strict path check anyway.
 */

export const CACHE_NO_CACHE = 'no-cache';
/** For files whose name changes with their content (hashed chunks, random upload names). */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The path of a request below `prefix` as decoded segments, or null when any segment could
 * lead somewhere else: empty (`//`, an absolute path), `.` or `..` (also when percent-encoded),
 * a dotfile, or one that decodes to a slash, a backslash or a NUL. Works on the raw URL, before
 * anything has normalised it.
 */
export function pathSegments(rawUrl: string, prefix: string): string[] | null {
  const pathname = rawUrl.split('?', 1)[0] ?? '';
  if (!pathname.startsWith(prefix)) return null;
  const segments: string[] = [];
  for (const raw of pathname.slice(prefix.length).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/**
 * The absolute path of a regular file at `segments` below `root`, or null. Symlinks are
 * refused anywhere on the way (the real path must be exactly the path asked for), so a link
 * placed in the store cannot expose the rest of the disk.
 */
export async function resolveInside(
  root: string,
  segments: readonly string[],
): Promise<string | null> {
  if (segments.length === 0) return null;
  const base = path.resolve(root);
  const file = path.join(base, ...segments);
  const relative = path.relative(base, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  try {
    const [realBase, realFile, info] = await Promise.all([
      realpath(base),
      realpath(file),
      lstat(file),
    ]);
    if (!info.isFile() || realFile !== path.join(realBase, relative)) return null;
    return file;
  } catch {
    return null;
  }
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === etag.slice(2);
  });
}

/**
 * The compressed copies a build writes beside a text file (webpack.preset.cjs), best first.
 * Only text is worth it: pictures, audio and video are compressed already.
 */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
const COMPRESSIBLE_TYPE = /^(text\/|application\/(json|javascript|wasm)|image\/svg\+xml)/;

/** The content codings an `Accept-Encoding` header allows (those not given q=0). */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  return accepted;
}

/**
 * The compressed copy of `key` to send for this request, or null: one the client accepts,
 * written beside the file by the build. A range request gets the file as it is, since its byte
 * offsets are the uncompressed ones.
 */
async function compressedCopy(
  request: FastifyRequest,
  store: MediaStore,
  key: string,
): Promise<{ encoding: string; key: string; info: StoredInfo } | null> {
  if (request.headers.range) return null;
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  for (const { encoding, suffix } of PRECOMPRESSED) {
    if (!accepted.has(encoding)) continue;
    // Not built for this file (too small to gain, or an older build): try the next one.
    const info = await store.stat(key + suffix);
    if (info) return { encoding, key: key + suffix, info };
  }
  return null;
}

export interface SendFileOptions {
  /**
   * Serve a build's pre-compressed copy (`.br`, `.gz`) when the client accepts it: for built
   * files only, which the build compresses once, so no request pays for compression.
   */
  precompressed?: boolean;
}

/**
 * Sends a stored file (a local folder's or an object store's, src/storage) with its content
 * type, cache rule, a validator for conditional requests and one byte range when asked: players
 * seek in a video that way. A key that is not there answers the plain 404.
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  store: MediaStore,
  key: string,
  cacheControl: string,
  options: SendFileOptions = {},
): Promise<FastifyReply> {
  const type = contentTypeOf(key);
  const negotiated = options.precompressed && COMPRESSIBLE_TYPE.test(type);
  const compressed = negotiated ? await compressedCopy(request, store, key) : null;
  // Gone since it was resolved (a cleaned build folder) is the same as never there.
  const info = compressed?.info ?? (await store.stat(key));
  if (!info) return sendFileNotFound(reply);
  // Each coding is its own representation, with its own validator.
  const tag = `${info.size.toString(16)}-${Math.floor(info.modified.getTime()).toString(16)}`;
  const etag = `W/"${tag}${compressed ? `-${compressed.encoding}` : ''}"`;
  reply
    .header('cache-control', cacheControl)
    .header('etag', etag)
    .header('last-modified', info.modified.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .type(type);
  // Caches must key the answer by what the client accepts, whichever copy it got.
  if (negotiated) reply.header('vary', 'accept-encoding');
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  // Fastify's automatic HEAD route keeps our content-length for a stream (it would write 0 for
  // no payload) and drains it: an empty one spares reading the file.
  const body = async (range?: { start: number; end: number }) =>
    request.method === 'HEAD'
      ? Readable.from([])
      : ((await store.read(compressed?.key ?? key, range)) ?? Readable.from([]));
  if (compressed) {
    reply.header('content-encoding', compressed.encoding).header('content-length', info.size);
    return reply.send(await body());
  }
  reply.header('accept-ranges', 'bytes');
  const range = byteRange(request.headers.range, info.size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${info.size}`).send();
  }
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(await body(range));
  }
  reply.header('content-length', info.size);
  return reply.send(await body());
}

/** `sendStored` for a file of this machine (a library's, a build's), by its path. */
export function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  cacheControl: string,
  options: SendFileOptions = {},
): Promise<FastifyReply> {
  const store = new LocalStore(path.dirname(file));
  return sendStored(request, reply, store, path.basename(file), cacheControl, options);
}

/**
 * The one byte range of a `Range: bytes=a-b` header (also `a-` and the suffix `-n`), clamped to
 * the file; null when absent or not a single byte range (the whole file is sent then).
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // The last n bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** A plain 404 for file paths (the JSON envelope is for `/api`). */
export function sendFileNotFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .header('cache-control', CACHE_NO_CACHE)
    .type('text/plain; charset=utf-8')
    .send('未找到');
}
