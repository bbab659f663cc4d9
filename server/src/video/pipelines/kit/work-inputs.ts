import { defaultMusicId, resolveMusic, uploadKey } from '../../library/music/catalog';
import type { UploadRow } from '../../../repositories/uploads';
import { StageError, UserInputError } from '../../../tasks/errors';
import type { MediaPipelineOptions } from './pipeline';

/**
 * What the pipelines take from the user besides the text: uploaded pictures, clips and music
 * (each checked to be the caller's), and the background music of a work.
 */

/**
 * A local file of an upload URL (`/uploads/<name>`): the stored file itself in the local
 * folder, a copy in this process's cache folder with an object store (a worker on another
 * machine reads what an API process stored). Null when the upload's file is gone: the caller
 * words that.
 */
export async function uploadedFile(
  options: Pick<MediaPipelineOptions, 'stores'>,
  url: string,
): Promise<string | null> {
  const key = uploadKey(url);
  // The URL comes from our own upload row: one that is not a stored name is the server's fault.
  if (!key) throw new StageError('上传文件的地址无效，请重新上传');
  return options.stores.uploads.cached(key);
}

/**
 * The music id a work plays: its chosen one (settings.musicId; 0 is none), else its default
 * built-in track. Checked when the task starts, so another user's upload fails before any
 * rendering (a UserInputError from resolveMusic).
 */
export async function chooseMusic(
  options: MediaPipelineOptions,
  userId: number,
  workId: number,
  musicId: number | undefined,
): Promise<number> {
  const id = musicId ?? defaultMusicId(workId);
  await resolveMusic(options, userId, id);
  return id;
}

/** The default built-in track of a work (for pipelines without a music choice of their own). */
export async function musicOf(
  options: MediaPipelineOptions,
  workId: number,
): Promise<string | undefined> {
  // A built-in id (negative) belongs to no user, so no user id is needed to resolve it.
  return (await resolveMusic(options, 0, defaultMusicId(workId))) ?? undefined;
}

/** Checks each upload URL is the user's upload of this kind; `what(i)` names the i-th in errors. */
export async function ownUploads(
  options: MediaPipelineOptions,
  userId: number,
  urls: string[],
  kinds: Array<UploadRow['kind']>,
  what: (i: number) => string,
): Promise<UploadRow[]> {
  const uploads = options.repos.uploads;
  const rows: UploadRow[] = [];
  for (const [i, url] of urls.entries()) {
    const row = await uploads.findOwnedByUrl(userId, url.trim());
    // Another user's file is "not found" like a missing one: nothing about it leaks.
    if (!row || !kinds.includes(row.kind))
      throw new UserInputError(`${what(i)}不存在或不属于你，请重新上传`);
    rows.push(row);
  }
  return rows;
}

/** The music file of a work: the chosen id of the script stage, or the work's default track. */
export async function resolveWorkMusic(
  options: MediaPipelineOptions,
  userId: number,
  workId: number,
  musicId: unknown,
): Promise<string | undefined> {
  return typeof musicId === 'number'
    ? ((await resolveMusic(options, userId, musicId)) ?? undefined)
    : musicOf(options, workId);
}
