import { createReadStream } from 'node:fs';
import {
  copyFile,
  lstat,
  mkdir,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import {
  checkKey,
  keyBelow,
  type MediaStore,
  type StoredEntry,
  type StoredInfo,
} from './media-store';

/**
 * The store as a folder of this machine (the embedded default): the key is the path below
 * `root`. Symlinks are refused on the way to any key read (the real path must be exactly the
 * path asked for), so a link placed in the folder cannot expose the rest of the disk.
 */
export class LocalStore implements MediaStore {
  readonly description: string;

  constructor(readonly root: string) {
    this.root = path.resolve(root);
    this.description = `local folder ${this.root}`;
  }

  localPath(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  keyOfFile(file: string): string | null {
    return keyBelow(this.root, file);
  }

  /** The file of a key that is a regular file reached without a link, or null. */
  private async existing(key: string): Promise<string | null> {
    const file = this.localPath(key);
    try {
      const [realRoot, realFile, info] = await Promise.all([
        realpath(this.root),
        realpath(file),
        lstat(file),
      ]);
      const relative = path.relative(this.root, file);
      return info.isFile() && realFile === path.join(realRoot, relative) ? file : null;
    } catch {
      return null;
    }
  }

  async open(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  cached(key: string): Promise<string | null> {
    return this.existing(key);
  }

  async stat(key: string): Promise<StoredInfo | null> {
    const file = await this.existing(key);
    if (!file) return null;
    const info = await stat(file).catch(() => null);
    return info ? { size: info.size, modified: info.mtime } : null;
  }

  async read(key: string, range?: { start: number; end: number }) {
    const file = await this.existing(key);
    return file ? createReadStream(file, range) : null;
  }

  async putFile(key: string, file: string): Promise<void> {
    const target = this.localPath(key);
    // Writers that work in the folder itself (the pipelines, on the embedded default) have
    // already put the file where it belongs.
    if (path.resolve(file) === target) return;
    await mkdir(path.dirname(target), { recursive: true });
    const part = `${target}.part-${process.pid}-${Date.now()}`;
    await copyFile(file, part);
    await rename(part, target);
  }

  async putBytes(key: string, bytes: Buffer | string): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    const part = `${target}.part-${process.pid}-${Date.now()}`;
    await writeFile(part, bytes);
    await rename(part, target);
  }

  async download(key: string, file: string): Promise<boolean> {
    const source = await this.existing(key);
    if (!source) return false;
    if (path.resolve(file) === source) return true;
    await mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.part-${process.pid}-${Date.now()}`;
    await copyFile(source, part);
    await rename(part, file);
    return true;
  }

  async list(prefix: string): Promise<StoredEntry[]> {
    checkKey(prefix, { prefix: true });
    const start = prefix === '' ? this.root : this.localPath(prefix.replace(/\/$/, ''));
    const entries: StoredEntry[] = [];
    const walk = async (dir: string) => {
      const items = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const item of items) {
        const full = path.join(dir, item.name);
        if (item.isDirectory()) await walk(full);
        else if (item.isFile() && !/\.part(-|$)/.test(item.name)) {
          const key = path.relative(this.root, full).split(path.sep).join('/');
          if (key.startsWith(prefix)) entries.push({ key, size: (await stat(full)).size });
        }
      }
    };
    // A prefix that is a folder lists it; one that is part of a name lists its folder's matches.
    await walk(prefix === '' || prefix.endsWith('/') ? start : path.dirname(start));
    return entries.sort((a, b) => a.key.localeCompare(b.key));
  }

  async remove(keyOrPrefix: string): Promise<void> {
    checkKey(keyOrPrefix, { prefix: true });
    if (keyOrPrefix === '') throw new Error('refusing to remove a whole media store');
    await rm(this.localPath(keyOrPrefix.replace(/\/$/, '')), { recursive: true, force: true });
  }
}
