import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { Value } from 'typebox/value';
import { RouteClaim } from '@kol/shared-sdk/contracts';

/** Federation names as the webpack preset gives them (`mfe_user`); also a folder name. */
export const REMOTE_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** `<package version>-<content hash>`; safe as one path segment. */
export const RELEASE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$/;

export const MANIFEST_FILE = 'mf-manifest.json';
/**
 * The host shell's federation name: released, listed, rolled back and promoted like a remote,
 * in the same store and tables, but served at the site root (routes/host.ts) rather than
 * named in the registry.
 */
export const HOST_NAME = 'host_shell';
export const HOST_PAGE = 'index.html';
export const ROUTES_FILE = 'kol-routes.json';

/** Which check refused a build, so the refusal (and a test) can name it. */
export type ReleaseCheck =
  'files' | 'manifest' | 'name' | 'routes' | 'version' | 'shared' | 'duplicate';

export class ReleaseRefused extends Error {
  constructor(
    readonly check: ReleaseCheck,
    message: string,
  ) {
    super(message);
    this.name = 'ReleaseRefused';
  }
}

/** A remote's build folder, read and checked, not yet in the store. */
export interface RemoteBuild {
  remote: string;
  dir: string;
  /** Relative POSIX paths of the files to release, sorted. */
  files: string[];
  manifest: Record<string, unknown>;
  routes: RouteClaim[];
  /** Package version + '-' + the first 8 hex digits of the content hash. */
  version: string;
}

/**
 * A check a build must pass before it is released, after the ones every build gets (the
 * shared-singleton version check of shared-check.ts is one).
 */
export type BuildCheck = (build: RemoteBuild) => void | Promise<void>;

/**
 * The files of a build folder, recursively. Dotfiles are left out (the start script keeps
 * its `.build-stamp` there); a symlink or anything but a plain file is refused, so a release
 * can never point outside itself.
 */
export async function listBuildFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) files.push(child);
      else throw new ReleaseRefused('files', `发布被拒绝（文件检查）：${child} 不是普通文件`);
    }
  }
  try {
    const stat = await lstat(dir);
    if (!stat.isDirectory()) throw new Error('not a directory');
  } catch {
    throw new ReleaseRefused('files', `发布被拒绝（文件检查）：构建目录 ${dir} 不存在`);
  }
  await walk('');
  return files.sort();
}

const COPY_CODINGS: ReadonlyArray<{ suffix: string; decode: (data: Buffer) => Promise<Buffer> }> = [
  { suffix: '.br', decode: promisify(brotliDecompress) },
  { suffix: '.gz', decode: promisify(gunzip) },
];

/**
 * Every compressed copy (`x.js.br`, `x.js.gz`) says exactly what its file says: the server
 * sends the copy to every browser that accepts it, so a copy left over from another build (a
 * file patched by hand after the build, say) would serve that build's code. The copies are the
 * build's own (webpack.preset.cjs); one that does not decode to its file refuses the release.
 */
export async function checkCompressedCopies(dir: string, files: readonly string[]): Promise<void> {
  const present = new Set(files);
  for (const file of files) {
    const coding = COPY_CODINGS.find(({ suffix }) => file.endsWith(suffix));
    const source = coding ? file.slice(0, -coding.suffix.length) : '';
    if (!coding || !present.has(source)) continue;
    let same = false;
    try {
      const [copy, original] = await Promise.all([
        readFile(path.join(dir, file)),
        readFile(path.join(dir, source)),
      ]);
      same = (await coding.decode(copy)).equals(original);
    } catch {
      same = false;
    }
    if (!same) {
      throw new ReleaseRefused(
        'files',
        `发布被拒绝（文件检查）：压缩副本 ${file} 与 ${source} 的内容不一致，请重新构建`,
      );
    }
  }
}

/** sha256 over every file's path and bytes: the same build gives the same version. */
export async function hashBuild(dir: string, files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    for await (const chunk of createReadStream(path.join(dir, file))) hash.update(chunk as Buffer);
    hash.update('\0');
  }
  return hash.digest('hex');
}

async function readJson(dir: string, file: string, check: ReleaseCheck): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path.join(dir, file), 'utf8');
  } catch {
    throw new ReleaseRefused(check, `发布被拒绝（${checkLabel(check)}）：缺少 ${file}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ReleaseRefused(check, `发布被拒绝（${checkLabel(check)}）：${file} 不是有效的 JSON`);
  }
}

export function checkLabel(check: ReleaseCheck): string {
  return {
    files: '文件检查',
    manifest: '清单检查',
    name: '名称检查',
    routes: '路由声明检查',
    version: '版本检查',
    shared: '共享依赖检查',
    duplicate: '重复发布检查',
  }[check];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The package version the build says it is (the preset writes it into the manifest). */
function packageVersion(manifest: Record<string, unknown>): string {
  const metaData = manifest.metaData;
  const buildInfo = isRecord(metaData) ? metaData.buildInfo : undefined;
  const version = isRecord(buildInfo) ? buildInfo.buildVersion : undefined;
  return typeof version === 'string' && version !== '' ? version : '0.0.0';
}

/**
 * Reads a remote's build folder and runs the checks every release needs: the manifest is
 * there, parses and names this remote; the route claims are there and each is a valid
 * RouteClaim (for the host, HOST_NAME: its index.html is there instead); then any extra checks. Throws ReleaseRefused naming the failed check.
 */
export async function inspectBuild(
  remote: string,
  dir: string,
  extraChecks: readonly BuildCheck[] = [],
): Promise<RemoteBuild> {
  if (!REMOTE_NAME.test(remote)) {
    throw new ReleaseRefused(
      'name',
      `发布被拒绝（名称检查）：远程模块名 “${remote}” 只能由小写字母、数字和下划线组成`,
    );
  }
  const files = await listBuildFiles(dir);
  await checkCompressedCopies(dir, files);
  const manifest = await readJson(dir, MANIFEST_FILE, 'manifest');
  if (!isRecord(manifest)) {
    throw new ReleaseRefused('manifest', `发布被拒绝（清单检查）：${MANIFEST_FILE} 不是对象`);
  }
  if (manifest.name !== remote) {
    throw new ReleaseRefused(
      'name',
      `发布被拒绝（名称检查）：${MANIFEST_FILE} 的 name 是 “${String(manifest.name)}”，应为 “${remote}”`,
    );
  }
  if (remote === HOST_NAME) {
    // The host claims no routes (it owns every path no remote claims) but must have its page.
    if (!files.includes(HOST_PAGE)) {
      throw new ReleaseRefused('files', `发布被拒绝（文件检查）：宿主构建缺少 ${HOST_PAGE}`);
    }
    return finish({ remote, dir, files, manifest, routes: [] }, extraChecks);
  }
  const routes = await readJson(dir, ROUTES_FILE, 'routes');
  if (!Array.isArray(routes)) {
    throw new ReleaseRefused('routes', `发布被拒绝（路由声明检查）：${ROUTES_FILE} 应为数组`);
  }
  routes.forEach((claim: unknown, index) => {
    const [error] = Value.Errors(RouteClaim, claim);
    if (error) {
      throw new ReleaseRefused(
        'routes',
        `发布被拒绝（路由声明检查）：${ROUTES_FILE} 第 ${index + 1} 项 ${error.instancePath || '/'} ${error.message}`,
      );
    }
    if (!(claim as RouteClaim).path.startsWith('/')) {
      throw new ReleaseRefused(
        'routes',
        `发布被拒绝（路由声明检查）：${ROUTES_FILE} 第 ${index + 1} 项的 path 应以 / 开头`,
      );
    }
  });

  return finish({ remote, dir, files, manifest, routes: routes as RouteClaim[] }, extraChecks);
}

/** Names the checked build by its content and runs the extra checks on it. */
async function finish(
  build: Omit<RemoteBuild, 'version'>,
  extraChecks: readonly BuildCheck[],
): Promise<RemoteBuild> {
  const hash = await hashBuild(build.dir, build.files);
  const version = `${packageVersion(build.manifest)}-${hash.slice(0, 8)}`;
  if (!RELEASE_VERSION.test(version)) {
    throw new ReleaseRefused('version', `发布被拒绝（版本检查）：版本号 “${version}” 不合法`);
  }
  const named: RemoteBuild = { ...build, version };
  for (const check of extraChecks) await check(named);
  return named;
}

/** The remote name a build folder's manifest declares, or null when it has none. */
export async function manifestName(dir: string): Promise<string | null> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as unknown;
    return isRecord(manifest) && typeof manifest.name === 'string' ? manifest.name : null;
  } catch {
    return null;
  }
}
