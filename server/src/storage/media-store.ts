import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * One place for every file another process must read: the users' uploads, generated media
 * (with the intermediates a later stage reads), and the releases of the host and the remotes.
 * Two implementations behind this interface, chosen by the environment (MEDIA_STORE): a local
 * folder (the embedded default: one machine) and any S3-compatible object store (several API
 * and worker processes on several machines).
 *
 * A key is a relative path of `/`-separated segments (`12/<taskId>/video.mp4`); each store of
 * an area (`media`, `uploads`, `releases`) has its own root folder or key prefix.
 */
export interface MediaStore {
  /** `local folder /data/media`, `s3://bucket/prefix/media/`: for logs and messages. */
  readonly description: string;
  /**
   * The key's file on this machine's disk when the store is a local folder (readers may then
   * use it in place), null for an object store. Does not check that it exists.
   */
  localPath(key: string): string | null;
  /**
   * The key of a file of this machine that this store gave out (its local file, or the copy
   * `cached` made), or null: a render records what it read by key (video/export/timeline.ts).
   */
  keyOfFile(file: string): string | null;
  /**
   * Makes sure the store can be used, at start: the folder is made; the bucket answers (a
   * clear error naming it and the endpoint otherwise, rather than a failure at the first
   * upload).
   */
  open(): Promise<void>;
  /**
   * The key's file on this machine, for tools that need a path (ffmpeg, canvas): the file
   * itself in a local folder; for an object store a copy downloaded into this process's cache
   * folder (kept: a later call finds it there when its size still matches). Null when there
   * is no such key.
   */
  cached(key: string): Promise<string | null>;
  /** Size and time of a stored key, null when there is none. */
  stat(key: string): Promise<StoredInfo | null>;
  /** The key's bytes, or the inclusive byte range of them; null when there is no such key. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Stores a file of this machine's disk under `key` (replacing what was there). */
  putFile(key: string, file: string, contentType?: string): Promise<void>;
  putBytes(key: string, bytes: Buffer | string, contentType?: string): Promise<void>;
  /**
   * Copies the key to `file` on this machine (whole, or not at all: written under a temporary
   * name and renamed). False when there is no such key.
   */
  download(key: string, file: string): Promise<boolean>;
  /** The keys below a prefix (`12/<taskId>/`), with their sizes; '' for everything. */
  list(prefix: string): Promise<StoredEntry[]>;
  /** Removes a key, or every key below a prefix ending in `/`. */
  remove(keyOrPrefix: string): Promise<void>;
}

export interface StoredInfo {
  size: number;
  modified: Date;
}

export interface StoredEntry {
  key: string;
  size: number;
}

/** The stores of the three areas, each with its own folder or key prefix. */
export interface MediaStores {
  /** Generated media: `<userId>/<taskId>/…`, `<userId>/tts/…` (served at `/media/`). */
  media: MediaStore;
  /** Uploaded pictures, clips and music: `<random name>.<ext>` (served at `/uploads/`). */
  uploads: MediaStore;
  /** Releases: `<remote>/<version>/<file>` (served at `/remotes/`, the host's at `/`). */
  releases: MediaStore;
}

/**
 * A key as stores take it, or an error: relative, `/`-separated, with no empty, `.`/`..`,
 * dot-file or backslash segment (a key from a URL is checked before it gets here, see
 * http/static-files.ts `pathSegments`; this guards every other caller).
 */
export function checkKey(key: string, { prefix = false } = {}): string {
  const body = prefix && key.endsWith('/') ? key.slice(0, -1) : key;
  if (prefix && body === '') return key;
  const bad = body
    .split('/')
    .some((segment) => segment === '' || segment.startsWith('.') || /[\\\0]/.test(segment));
  if (bad) throw new Error(`not a media store key: "${key}"`);
  return key;
}

/** A key from a path relative to a store's root on any platform (`12\\task\\a.mp4` too). */
export const keyOf = (relative: string): string => relative.split(/[\\/]+/).join('/');

/** The key of `file` below the folder `root`, or null when it is not inside it. */
export function keyBelow(root: string, file: string): string | null {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  try {
    return checkKey(keyOf(relative));
  } catch {
    return null;
  }
}
