import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteBuild } from './build';

/**
 * The release store on the local disk: `<root>/<remote>/<version>/`, one folder per release,
 * never changed once in place. A larger installation may serve these folders from any static
 * host or CDN; the database keeps only the pointers.
 */
export class ReleaseStore {
  constructor(readonly root: string) {}

  folder(remote: string, version: string): string {
    return path.join(this.root, remote, version);
  }

  /** The folders of every stored version of a remote (a `.tmp-` folder is none). */
  async folders(remote: string): Promise<string[]> {
    try {
      const entries = await readdir(path.join(this.root, remote), { withFileTypes: true });
      return entries
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => this.folder(remote, entry.name));
    } catch {
      return [];
    }
  }

  async has(remote: string, version: string): Promise<boolean> {
    try {
      return (await stat(this.folder(remote, version))).isDirectory();
    } catch {
      return false;
    }
  }

  /**
   * Copies a build into the store: first into a temporary folder beside its place, then one
   * rename, so a reader never sees half a release and a crash leaves only a `.tmp-` folder.
   * Answers false when the version's folder is there already (same version = same content);
   * it is never overwritten.
   */
  async write(build: RemoteBuild): Promise<boolean> {
    if (await this.has(build.remote, build.version)) return false;
    const parent = path.join(this.root, build.remote);
    await mkdir(parent, { recursive: true });
    const temp = path.join(parent, `.tmp-${build.version}-${randomBytes(4).toString('hex')}`);
    try {
      for (const file of build.files) {
        const target = path.join(temp, ...file.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(path.join(build.dir, ...file.split('/')), target);
      }
      try {
        await rename(temp, this.folder(build.remote, build.version));
      } catch (error) {
        // Another process put the same version in place first: its files are the same.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
        throw error;
      }
      return true;
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }
}
