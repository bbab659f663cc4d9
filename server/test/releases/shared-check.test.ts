import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { inspectBuild, ReleaseRefused } from '../../src/releases/build';
import {
  localManifest,
  remotesFitHostCheck,
  sharedVersionCheck,
} from '../../src/releases/shared-check';
import { releaseKey } from '../../src/releases/store';
import { LocalStore } from '../../src/storage/local-store';
import { makeFakeBuild, sharedSingleton } from '../helpers/fake-build';

/**
 * The shared-singleton check alone (issue 5: "a unit test proves a release with an
 * incompatible shared version is refused"): no server, no database, a fake host manifest.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'kol-shared-check-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hostManifest = path.join(root, 'host', 'mf-manifest.json');
function writeHost(shared: unknown[]): void {
  mkdirSync(path.dirname(hostManifest), { recursive: true });
  writeFileSync(hostManifest, JSON.stringify({ name: 'host_shell', shared }));
}

let builds = 0;
async function check(shared: unknown[], manifestPath = hostManifest) {
  builds += 1;
  const dir = makeFakeBuild(path.join(root, `build-${builds}`), {
    marker: String(builds),
    shared,
  });
  return inspectBuild('mfe_fake', dir, [sharedVersionCheck(() => localManifest(manifestPath))]);
}

async function refusal(promise: Promise<unknown>): Promise<ReleaseRefused> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ReleaseRefused) return error;
    throw error;
  }
  throw new Error('the release was accepted');
}

describe('shared singleton versions against the host', () => {
  it('refuses a singleton whose version is outside the host range', async () => {
    writeHost([sharedSingleton('react', '19.3.1'), sharedSingleton('antd', '6.6.8')]);
    const error = await refusal(
      check([sharedSingleton('react', '18.2.0'), sharedSingleton('antd', '6.6.8')]),
    );
    expect(error.check).toBe('shared');
    expect(error.message).toBe(
      '发布被拒绝（共享依赖检查）：共享依赖 react 的版本 18.2.0 不满足宿主要求的 ^19.3.1',
    );
  });

  it('names every failing singleton at once', async () => {
    writeHost([sharedSingleton('react', '19.3.1'), sharedSingleton('antd', '6.6.8')]);
    const error = await refusal(
      check([sharedSingleton('react', '20.0.0'), sharedSingleton('antd', '5.0.0')]),
    );
    expect(error.message).toContain('共享依赖 react 的版本 20.0.0 不满足宿主要求的 ^19.3.1');
    expect(error.message).toContain('共享依赖 antd 的版本 5.0.0 不满足宿主要求的 ^6.6.8');
  });

  it('accepts versions inside the ranges, and packages the host does not share', async () => {
    writeHost([sharedSingleton('react', '19.3.1')]);
    const build = await check([
      sharedSingleton('react', '19.4.0', '^19.4.0'),
      sharedSingleton('left-pad', '1.0.0'),
    ]);
    expect(build.version).toMatch(/^0\.1\.0-[0-9a-f]{8}$/);
  });

  it('checks a package that is a singleton on either side only', async () => {
    writeHost([{ ...sharedSingleton('lodash', '4.17.0'), singleton: false }]);
    await expect(
      check([{ ...sharedSingleton('lodash', '3.0.0'), singleton: false }]),
    ).resolves.toBeDefined();
    const error = await refusal(check([sharedSingleton('lodash', '3.0.0')]));
    expect(error.message).toContain('共享依赖 lodash 的版本 3.0.0 不满足宿主要求的 ^4.17.0');
  });

  it('refuses a singleton without a valid version', async () => {
    writeHost([sharedSingleton('react', '19.3.1')]);
    const error = await refusal(check([{ ...sharedSingleton('react', ''), version: 'latest' }]));
    expect(error.message).toContain('共享依赖 react 的版本 “latest” 不是有效的版本号');
  });

  it('refuses when the host build cannot be read, but only if there is something to check', async () => {
    const missing = path.join(root, 'no-host', 'mf-manifest.json');
    const error = await refusal(check([sharedSingleton('react', '19.3.1')], missing));
    expect(error.check).toBe('shared');
    expect(error.message).toContain('读不到宿主构建的');
    await expect(check([], missing)).resolves.toBeDefined();
  });

  it('refuses a shared list that is not a list', async () => {
    writeHost([]);
    const dir = makeFakeBuild(path.join(root, 'bad-shared'), {
      manifest: JSON.stringify({ name: 'mfe_fake', shared: { react: '18' } }),
    });
    const error = await refusal(
      inspectBuild('mfe_fake', dir, [sharedVersionCheck(() => localManifest(hostManifest))]),
    );
    expect(error.check).toBe('manifest');
  });
});

describe('the reverse check of a host release', () => {
  /** A remote's manifest as it lies in the release store, with its shared singletons. */
  const store = new LocalStore(path.join(root, 'store'));
  function storedRemote(remote: string, version: string, shared: unknown[]) {
    const key = releaseKey(remote, version, 'mf-manifest.json');
    const manifestPath = path.join(root, 'store', remote, version, 'mf-manifest.json');
    mkdirSync(path.dirname(manifestPath), { recursive: true });
    writeFileSync(manifestPath, JSON.stringify({ name: remote, shared }));
    return { remote, version, manifest: { store, key } };
  }

  function hostBuild(label: string, shared: unknown[]): string {
    const dir = path.join(root, `host-${label}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), `<title>${label}</title>`);
    writeFileSync(
      path.join(dir, 'mf-manifest.json'),
      JSON.stringify({ name: 'host_shell', shared }),
    );
    return dir;
  }

  const running = [
    storedRemote('mfe_a', '0.1.0-aaaaaaaa', [sharedSingleton('react', '19.3.2', '^19.3.1')]),
    // A canary version is run by browsers too, so it is checked like the active one.
    storedRemote('mfe_b', '0.2.0-bbbbbbbb', [sharedSingleton('react', '18.3.1')]),
  ];

  it('accepts a host whose ranges every running remote fits', async () => {
    const dir = hostBuild('fits', [sharedSingleton('react', '19.3.1', '>=18.3.0')]);
    const build = await inspectBuild('host_shell', dir, [remotesFitHostCheck(async () => running)]);
    expect(build.routes).toEqual([]);
  });

  it('names each running remote that does not fit, and one it cannot read', async () => {
    const dir = hostBuild('clash', [sharedSingleton('react', '19.3.1')]);
    const missing = {
      remote: 'mfe_c',
      version: '0.1.0-cccccccc',
      manifest: { store, key: releaseKey('mfe_c', '0.1.0-cccccccc', 'mf-manifest.json') },
    };
    const error = await refusal(
      inspectBuild('host_shell', dir, [remotesFitHostCheck(async () => [...running, missing])]),
    );
    expect(error.check).toBe('shared');
    expect(error.message).toContain(
      '远程模块 mfe_b（0.2.0-bbbbbbbb）：共享依赖 react 的版本 18.3.1 不满足新宿主要求的 ^19.3.1',
    );
    expect(error.message).toContain('远程模块 mfe_c（0.1.0-cccccccc）的 mf-manifest.json 读不到');
    expect(error.message).not.toContain('mfe_a');
  });

  it('refuses a host build without its index.html', async () => {
    const dir = hostBuild('no-page', []);
    rmSync(path.join(dir, 'index.html'));
    const error = await refusal(inspectBuild('host_shell', dir));
    expect(error).toMatchObject({ check: 'files', message: expect.stringContaining('index.html') });
  });
});
