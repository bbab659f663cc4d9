import path from 'node:path';
import { text } from 'node:stream/consumers';
import semver from 'semver';
import type { MediaStore } from '../storage';
import { LocalStore } from '../storage/local-store';
import { MANIFEST_FILE, ReleaseRefused, type BuildCheck, type RemoteBuild } from './build';

/** One entry of an mf-manifest.json `shared` list, as far as this check reads it. */
interface SharedEntry {
  name: string;
  version: unknown;
  requiredVersion: unknown;
  singleton: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sharedEntries(manifest: Record<string, unknown>, whose: string): SharedEntry[] {
  const shared = manifest.shared ?? [];
  if (!Array.isArray(shared)) {
    throw new ReleaseRefused(
      'manifest',
      `发布被拒绝（清单检查）：${whose}的 ${MANIFEST_FILE} 中 shared 应为数组`,
    );
  }
  return shared.filter(isRecord).flatMap((entry) =>
    typeof entry.name === 'string'
      ? [
          {
            name: entry.name,
            version: entry.version,
            requiredVersion: entry.requiredVersion,
            singleton: entry.singleton === true,
          },
        ]
      : [],
  );
}

/**
 * A manifest where the check reads it: a stored release's (`app.stores.releases`, any machine's
 * process reads the same) or the host build's on this machine (`localManifest`).
 */
export interface StoredManifest {
  store: MediaStore;
  key: string;
}

/** The manifest file of a build folder on this machine (the host build before its release). */
export function localManifest(file: string): StoredManifest {
  return { store: new LocalStore(path.dirname(file)), key: path.basename(file) };
}

/** Where a manifest is, for the messages: its path on this machine, or its object's URL. */
const manifestLocation = ({ store, key }: StoredManifest) =>
  store.localPath(key) ?? `${store.description}${key}`;

/** The manifest's JSON through its store; throws when it is missing or not JSON. */
async function readManifest({ store, key }: StoredManifest): Promise<unknown> {
  const body = await store.read(key);
  if (!body) throw new Error(`no ${key} in ${store.description}`);
  return JSON.parse(await text(body)) as unknown;
}

async function readHostShared(source: StoredManifest): Promise<Map<string, SharedEntry>> {
  let manifest: unknown;
  const manifestPath = manifestLocation(source);
  try {
    manifest = await readManifest(source);
  } catch {
    // Without the host's ranges nothing can be said about compatibility, and a remote whose
    // singletons do not match the host breaks every page: refuse rather than guess.
    throw new ReleaseRefused(
      'shared',
      `发布被拒绝（共享依赖检查）：读不到宿主构建的 ${manifestPath}，无法检查共享依赖版本；` +
        '请先构建宿主（pnpm --filter @kol/host-shell build）或用 HOST_DIST_DIR 指向它',
    );
  }
  if (!isRecord(manifest)) {
    throw new ReleaseRefused(
      'shared',
      `发布被拒绝（共享依赖检查）：宿主的 ${manifestPath} 不是对象`,
    );
  }
  return new Map(sharedEntries(manifest, '宿主').map((entry) => [entry.name, entry]));
}

/**
 * What is wrong with one remote's shared singletons under the host's ranges (singleton on
 * either side: at run time there is one copy, the host's). A package the host does not share,
 * or shares without a range, does not constrain the remote. `hostLabel` says which host.
 */
function sharedProblems(
  remoteShared: readonly SharedEntry[],
  host: ReadonlyMap<string, SharedEntry>,
  hostLabel: string,
): string[] {
  const problems: string[] = [];
  for (const entry of remoteShared) {
    const hostEntry = host.get(entry.name);
    if (!hostEntry || !(entry.singleton || hostEntry.singleton)) continue;
    const range = hostEntry.requiredVersion;
    if (typeof range !== 'string' || range === '' || range === '*') continue;
    if (semver.validRange(range) === null) {
      problems.push(
        `${hostLabel}对共享依赖 ${entry.name} 的版本要求 “${range}” 不是有效的版本范围`,
      );
      continue;
    }
    const version = entry.version;
    if (typeof version !== 'string' || semver.valid(version) === null) {
      problems.push(`共享依赖 ${entry.name} 的版本 “${String(version ?? '')}” 不是有效的版本号`);
    } else if (!semver.satisfies(version, range)) {
      problems.push(`共享依赖 ${entry.name} 的版本 ${version} 不满足${hostLabel}要求的 ${range}`);
    }
  }
  return problems;
}

/**
 * Every shared singleton of the remote must come in a version that satisfies the range the
 * host requires, read from the host's mf-manifest.json at each release (the active host
 * release's, or the host build's when the host was never released) so a new host counts at
 * once. A remote without singletons never needs the host's manifest.
 */
export function sharedVersionCheck(
  hostManifest: () => StoredManifest | Promise<StoredManifest>,
): BuildCheck {
  return async (build: RemoteBuild) => {
    const remoteShared = sharedEntries(build.manifest, '远程模块');
    if (remoteShared.length === 0) return;
    const host = await readHostShared(await hostManifest());
    const problems = sharedProblems(remoteShared, host, '宿主');
    if (problems.length > 0) {
      throw new ReleaseRefused('shared', `发布被拒绝（共享依赖检查）：${problems.join('；')}`);
    }
  };
}

/** A remote version browsers run now (an active one or a running canary) and its manifest. */
export interface RunningRemote {
  remote: string;
  version: string;
  manifest: StoredManifest;
}

/**
 * The same check the other way round, for a host release: every remote version browsers run
 * (active or canary) must still fit the new host's ranges, since the host is what they all
 * load into. A remote whose manifest cannot be read is named as well: nothing can be said of it.
 */
export function remotesFitHostCheck(running: () => Promise<RunningRemote[]>): BuildCheck {
  return async (build: RemoteBuild) => {
    const host = new Map(sharedEntries(build.manifest, '宿主').map((e) => [e.name, e]));
    const problems: string[] = [];
    for (const remote of await running()) {
      let manifest: unknown;
      try {
        manifest = await readManifest(remote.manifest);
      } catch {
        manifest = null;
      }
      const label = `远程模块 ${remote.remote}（${remote.version}）`;
      if (!isRecord(manifest)) {
        problems.push(`${label}的 ${MANIFEST_FILE} 读不到，无法检查共享依赖版本`);
        continue;
      }
      const found = sharedProblems(sharedEntries(manifest, label), host, '新宿主');
      if (found.length > 0) problems.push(`${label}：${found.join('，')}`);
    }
    if (problems.length > 0) {
      throw new ReleaseRefused(
        'shared',
        `发布被拒绝（共享依赖检查）：${problems.join('；')}；` +
          '请先发布与新宿主兼容的远程模块版本',
      );
    }
  };
}
