import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { RemoteChange, RemoteRegistry } from '@kol/shared-sdk/contracts';
import type { Page } from 'playwright-core';
import { api, kol, platformUrl } from './platform';

const REPO = path.resolve(__dirname, '..', '..');
export const USER_BUILD = path.join(REPO, 'mfe-user', 'dist');
export const HOST_BUILD = path.join(REPO, 'host-shell', 'dist');
/** The user centre's heading in its build: `userPageTitle` tells builds apart by it. */
export const USER_TITLE = '个人中心';

const made: string[] = [];

/**
 * Another build of an app, as a team's next build would be: a copy of `build` in which the
 * first file (`.js` or `.html`) holding `from` has it replaced by `to`, and with `breakIt` that
 * file made a script that throws (a broken release: its entry loads, the chunk it needs fails).
 * Every build is a new version: the server names a release by its content, so each test picks
 * its own `to`, which stays in the broken file too.
 */
export function variantBuild(
  build: string,
  from: string,
  to: string,
  options: { breakIt?: boolean } = {},
): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kol-release-'));
  made.push(dir);
  cpSync(build, dir, { recursive: true });
  const name = readdirSync(dir).find(
    (file) =>
      /\.(js|html)$/.test(file) && readFileSync(path.join(dir, file), 'utf8').includes(from),
  );
  if (!name) throw new Error(`no file of ${build} holds ${from}`);
  const file = path.join(dir, name);
  const changed = options.breakIt
    ? `throw new Error(${JSON.stringify(`broken build: ${to}`)});\n`
    : readFileSync(file, 'utf8').replaceAll(from, to);
  writeFileSync(file, changed);
  // The compressed copies a build writes beside a file, made again as the build would (the
  // server sends them to the browser, and refuses a release whose copies say something else).
  for (const [suffix, compress] of [
    ['.br', brotliCompressSync],
    ['.gz', gzipSync],
  ] as const) {
    if (readdirSync(dir).includes(`${name}${suffix}`)) {
      writeFileSync(`${file}${suffix}`, compress(changed));
    }
  }
  return dir;
}

/** Removes the variant builds the tests made. */
export function removeVariantBuilds(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `pnpm kol remote …` with `--json`: what the server did. */
export async function kolChange(...args: string[]): Promise<RemoteChange> {
  return JSON.parse(await kol('remote', ...args, '--json')) as RemoteChange;
}

/** The version of `remote` the registry answers: to the page's session, or signed out. */
export async function registryVersion(remote: string, page?: Page): Promise<string> {
  const registry = page
    ? await api<RemoteRegistry>(page, '/api/platform/remotes')
    : ((
        (await (await fetch(`${platformUrl()}/api/platform/remotes`)).json()) as {
          data: RemoteRegistry;
        }
      ).data as RemoteRegistry);
  const entry = registry.remotes.find((candidate) => candidate.name === remote);
  if (!entry) throw new Error(`${remote} is not in the registry`);
  return entry.version;
}
