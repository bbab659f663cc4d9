import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ReleaseStore } from '../../src/releases/store';
import { LocalStore } from '../../src/storage/local-store';

/**
 * The release store's check of a release's files (what the server finds before an automatic
 * rollback), on a local folder: no server, no database.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'kol-store-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const files = new LocalStore(root);
const store = new ReleaseStore(files);

const manifest = (remoteEntry: unknown) =>
  JSON.stringify({ name: 'mfe_fake', metaData: { name: 'mfe_fake', remoteEntry } });

let versions = 0;
/** Writes a release's files (a null content leaves the file out) and checks them. */
async function check(content: Record<string, string | null>) {
  versions += 1;
  const version = `0.1.0-${String(versions).padStart(8, '0')}`;
  for (const [file, body] of Object.entries(content)) {
    if (body !== null) await files.putBytes(`mfe_fake/${version}/${file}`, body);
  }
  return { version, found: await store.checkFiles('mfe_fake', version) };
}

describe('release files check', () => {
  it('finds a whole release: the manifest parses, the entry it names is there and not empty', async () => {
    const { version, found } = await check({
      'mf-manifest.json': manifest({ name: 'remoteEntry.js', path: '', type: 'global' }),
      'remoteEntry.js': 'var mfe_fake = 1;',
    });
    expect(found).toEqual({
      status: 'ok',
      detail: `清单可读，入口文件 mfe_fake/${version}/remoteEntry.js 存在（17 字节）`,
    });
    // The entry in a folder of the release, as the manifest's path says.
    const nested = await check({
      'mf-manifest.json': manifest({ name: 'remoteEntry.js', path: '/static/js/' }),
      'static/js/remoteEntry.js': 'x',
    });
    expect(nested.found.status).toBe('ok');
    expect(nested.found.detail).toContain(`mfe_fake/${nested.version}/static/js/remoteEntry.js`);
  });

  it('names what is broken: no manifest, a manifest that is no JSON or names no entry', async () => {
    const none = await check({ 'remoteEntry.js': 'x' });
    expect(none.found).toEqual({
      status: 'manifest-missing',
      detail: `发布存储中没有 mfe_fake/${none.version}/mf-manifest.json`,
    });
    expect((await check({ 'mf-manifest.json': '{"name":' })).found.status).toBe('manifest-invalid');
    for (const entry of [undefined, { path: '' }, { name: '' }, { name: '../../admin-token' }]) {
      const { found } = await check({ 'mf-manifest.json': manifest(entry), 'remoteEntry.js': 'x' });
      expect({ entry, status: found.status }).toEqual({ entry, status: 'manifest-invalid' });
    }
  });

  it('names a missing or empty entry file', async () => {
    const missing = await check({
      'mf-manifest.json': manifest({ name: 'remoteEntry.js', path: '' }),
      'remoteEntry.js': null,
    });
    expect(missing.found).toEqual({
      status: 'entry-missing',
      detail: `发布存储中没有入口文件 mfe_fake/${missing.version}/remoteEntry.js`,
    });
    const empty = await check({
      'mf-manifest.json': manifest({ name: 'remoteEntry.js', path: '' }),
      'remoteEntry.js': '',
    });
    expect(empty.found).toEqual({
      status: 'entry-empty',
      detail: `入口文件 mfe_fake/${empty.version}/remoteEntry.js 是空的`,
    });
  });

  it('says the store could not be read rather than calling the release broken', async () => {
    class DownStore extends LocalStore {
      override read(): Promise<never> {
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9000'));
      }
    }
    const down = new ReleaseStore(new DownStore(root));
    expect(await down.checkFiles('mfe_fake', '0.1.0-00000001')).toEqual({
      status: 'unreadable',
      detail: '读取发布存储失败：connect ECONNREFUSED 127.0.0.1:9000',
    });
  });
});
