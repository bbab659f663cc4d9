import path from 'node:path';
import { text } from 'node:stream/consumers';
import type { ReleaseFilesCheck } from '@kol/shared-sdk/contracts';
import { checkKey, type MediaStore, type StoredEntry } from '../storage';
import { MANIFEST_FILE, RELEASE_VERSION, type RemoteBuild } from './build';

/** The store key of a release's file: `<remote>/<version>/<file>`. */
export const releaseKey = (remote: string, version: string, file: string) =>
  `${remote}/${version}/${file}`;

/** The versions of a remote's listing whose manifest is there (a complete release each). */
function completeVersions(entries: readonly StoredEntry[]): string[] {
  const versions: string[] = [];
  for (const { key } of entries) {
    const [, version = '', ...file] = key.split('/');
    if (file.join('/') === MANIFEST_FILE && RELEASE_VERSION.test(version)) versions.push(version);
  }
  return versions.sort();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The store key of the remote entry a release's manifest names (`metaData.remoteEntry`, as the
 * module federation manifest writes it: a file name and a folder, '' for beside the manifest),
 * or null when the manifest names none a key can be.
 */
function remoteEntryKey(remote: string, version: string, manifest: unknown): string | null {
  const metaData = isRecord(manifest) ? manifest.metaData : undefined;
  const entry = isRecord(metaData) ? metaData.remoteEntry : undefined;
  if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name === '') return null;
  const folder = typeof entry.path === 'string' ? entry.path.replace(/^\/+|\/+$/g, '') : '';
  try {
    return checkKey(releaseKey(remote, version, folder ? `${folder}/${entry.name}` : entry.name));
  } catch {
    return null;
  }
}

/** Files put at once while a release is written: an object store answers each put slowly. */
const PARALLEL_PUTS = 8;

/**
 * The releases in the release area of the media store (`app.stores.releases`: DATA_DIR/releases
 * on the embedded default, the bucket's `releases/` prefix with MEDIA_STORE=s3), keyed
 * `<remote>/<version>/<file>`, never changed once complete. Every API process on every machine
 * reads the same store, so a release made through one is served by all; the database keeps
 * only the pointers.
 *
 * A version counts as stored once its manifest is there: it is written last, so a reader (or a
 * crash half-way) never sees an incomplete release as one.
 */
export class ReleaseStore {
  constructor(readonly files: MediaStore) {}

  async has(remote: string, version: string): Promise<boolean> {
    return (await this.files.stat(releaseKey(remote, version, MANIFEST_FILE))) !== null;
  }

  /** The complete stored versions of a remote (those with their manifest), sorted. */
  async versions(remote: string): Promise<string[]> {
    return completeVersions(await this.files.list(`${remote}/`));
  }

  /**
   * The key of `file` in a complete stored version of the remote other than `except`, or null.
   * One listing answers it, so an object store is asked once rather than once per version.
   */
  async findInOtherVersion(remote: string, file: string, except: string): Promise<string | null> {
    const entries = await this.files.list(`${remote}/`);
    const keys = new Set(entries.map((entry) => entry.key));
    for (const version of completeVersions(entries)) {
      const key = releaseKey(remote, version, file);
      if (version !== except && keys.has(key)) return key;
    }
    return null;
  }

  /**
   * What the store holds of a release, as a browser would first need it: the manifest reads
   * and parses, and the remote entry it names is there and not empty. Only the store is asked
   * (no script is run): `ok` says the files are whole, not that the code works. A store that
   * cannot be read answers `unreadable`, never a broken release.
   */
  async checkFiles(remote: string, version: string): Promise<ReleaseFilesCheck> {
    const manifestKey = releaseKey(remote, version, MANIFEST_FILE);
    try {
      const body = await this.files.read(manifestKey);
      if (!body) return { status: 'manifest-missing', detail: `发布存储中没有 ${manifestKey}` };
      const raw = await text(body);
      let manifest: unknown;
      try {
        manifest = JSON.parse(raw) as unknown;
      } catch {
        return { status: 'manifest-invalid', detail: `${manifestKey} 不是有效的 JSON` };
      }
      const entryKey = remoteEntryKey(remote, version, manifest);
      if (!entryKey) {
        return {
          status: 'manifest-invalid',
          detail: `${manifestKey} 没有可用的 metaData.remoteEntry.name（入口文件名）`,
        };
      }
      const entry = await this.files.stat(entryKey);
      if (!entry) return { status: 'entry-missing', detail: `发布存储中没有入口文件 ${entryKey}` };
      if (entry.size === 0) return { status: 'entry-empty', detail: `入口文件 ${entryKey} 是空的` };
      return {
        status: 'ok',
        detail: `清单可读，入口文件 ${entryKey} 存在（${entry.size} 字节）`,
      };
    } catch (error) {
      // The store did not answer (or broke off): nothing is known of the files either way.
      const reason = error instanceof Error ? error.message : String(error);
      return { status: 'unreadable', detail: `读取发布存储失败：${reason.slice(0, 300)}` };
    }
  }

  /**
   * Copies a build into the store: every file, then its manifest, so the version exists only
   * once complete. Answers false when the version is stored already (same version = same
   * content); it is never overwritten. Two processes writing the same version at once write
   * the same bytes, and a version left incomplete by a crash is completed by the next write.
   */
  async write(build: RemoteBuild): Promise<boolean> {
    if (await this.has(build.remote, build.version)) return false;
    const put = (file: string) =>
      this.files.putFile(
        releaseKey(build.remote, build.version, file),
        path.join(build.dir, ...file.split('/')),
      );
    const rest = build.files.filter((file) => file !== MANIFEST_FILE);
    for (let start = 0; start < rest.length; start += PARALLEL_PUTS) {
      await Promise.all(rest.slice(start, start + PARALLEL_PUTS).map(put));
    }
    await put(MANIFEST_FILE);
    return true;
  }
}
