import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { MAX_RELEASE_BYTES, MAX_RELEASE_FILES } from '@kol/shared-sdk/contracts';
import type { CliEnv } from '../env';
import { findRepoRoot } from '../paths';
import { listBuildFiles, ReleaseRefused } from '../releases/build';
import { CliError } from './command';

/** `mfe_user` → `<repo>/mfe-user/dist`, or --dir resolved from where the command was typed. */
export function buildDir(remote: string, dir: string | undefined, env: CliEnv): string {
  if (dir !== undefined) return path.resolve(env.cwd ?? process.cwd(), dir);
  return path.join(env.repoRoot ?? findRepoRoot(), remote.replace(/_/g, '-'), 'dist');
}

/**
 * The build as the release upload takes it: fields first (`canary`, the percentage, only for a
 * canary release), then one part per file named by its path relative to the build folder. Files are the ones a release keeps (dotfiles such as the
 * start script's stamp left out), read lazily from disk. Limits are checked here too, so a
 * build that is too big fails before anything is sent.
 */
export async function buildForm(
  remote: string,
  dir: string,
  note: string,
  canaryPercent?: number,
): Promise<FormData> {
  let files: string[];
  try {
    files = await listBuildFiles(dir);
  } catch (error) {
    if (error instanceof ReleaseRefused) {
      throw new CliError(
        `${error.message}\nBuild it first (pnpm --filter @kol/${remote.replace(/_/g, '-')} build) or give --dir.`,
      );
    }
    throw error;
  }
  if (files.length > MAX_RELEASE_FILES)
    throw new CliError(
      `${dir} has ${files.length} files; a release takes at most ${MAX_RELEASE_FILES}`,
    );
  const form = new FormData();
  form.append('remote', remote);
  form.append('note', note);
  if (canaryPercent !== undefined) form.append('canary', String(canaryPercent));
  let total = 0;
  for (const file of files) {
    const full = path.join(dir, ...file.split('/'));
    total += (await stat(full)).size;
    if (total > MAX_RELEASE_BYTES)
      throw new CliError(
        `${dir} is over ${MAX_RELEASE_BYTES / 1024 / 1024} MB; a release takes at most that`,
      );
    form.append('file', await openAsBlob(full), file);
  }
  return form;
}
