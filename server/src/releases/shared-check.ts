import { readFile } from 'node:fs/promises';
import semver from 'semver';
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

async function readHostShared(manifestPath: string): Promise<Map<string, SharedEntry>> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as unknown;
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
 * Every shared singleton of the remote (singleton on either side: at run time there is one
 * copy, the host's) must come in a version that satisfies the range the host's build
 * requires, read from the host build's mf-manifest.json at each release so a rebuilt host
 * counts at once. A package the host does not share, or shares without a range, does not
 * constrain the remote. A remote without singletons never needs the host's manifest.
 */
export function sharedVersionCheck(hostManifestPath: () => string): BuildCheck {
  return async (build: RemoteBuild) => {
    const remoteShared = sharedEntries(build.manifest, '远程模块');
    if (remoteShared.length === 0) return;
    const host = await readHostShared(hostManifestPath());
    const problems: string[] = [];
    for (const entry of remoteShared) {
      const hostEntry = host.get(entry.name);
      if (!hostEntry || !(entry.singleton || hostEntry.singleton)) continue;
      const range = hostEntry.requiredVersion;
      if (typeof range !== 'string' || range === '' || range === '*') continue;
      if (semver.validRange(range) === null) {
        problems.push(`宿主对共享依赖 ${entry.name} 的版本要求 “${range}” 不是有效的版本范围`);
        continue;
      }
      const version = entry.version;
      if (typeof version !== 'string' || semver.valid(version) === null) {
        problems.push(`共享依赖 ${entry.name} 的版本 “${String(version ?? '')}” 不是有效的版本号`);
      } else if (!semver.satisfies(version, range)) {
        problems.push(`共享依赖 ${entry.name} 的版本 ${version} 不满足宿主要求的 ${range}`);
      }
    }
    if (problems.length > 0) {
      throw new ReleaseRefused('shared', `发布被拒绝（共享依赖检查）：${problems.join('；')}`);
    }
  };
}
