import type { Repositories } from '../../../repositories';
import type { MediaStore } from '../../../storage';
import path from 'node:path';
import type { Music } from '@kol/shared-sdk/contracts';
import {
  AMBIENT_TRACKS,
  ambientFileName,
  ambientTrackByMusicId,
  ensureAmbientTrack,
  type AmbientTrack,
} from './ambient';
import { type UploadRow, type UploadsRepository } from '../../../repositories/uploads';
import { StageError, UserInputError } from '../../../tasks/errors';

/**
 * Music ids, as `settings.musicId`, new_bg_music_list, search_music and video_config (4) use them:
 *   < 0  a built-in synthesised track (`AMBIENT_TRACKS[].musicId`: -1, -2, …)
 *   > 0  the user's own uploaded audio: its asset id (user_uploads.id, kind 'audio')
 *   0    no music
 * Built-ins are negative so they can never equal an upload's id, however many uploads there are.
 */
export const NO_MUSIC_ID = 0;

/** The tag every uploaded track carries in the list. */
export const UPLOAD_TAG = '我的上传';

/** Where the built-in tracks are generated (at first use): `<mediaDir>/library/music/`. */
export const musicLibraryDir = (mediaDir: string) => path.join(mediaDir, 'library', 'music');

/** Served by the edit routes to any signed-in user (`/media/library/music/<file>`). */
export const BUILTIN_MUSIC_URL_PREFIX = '/media/library/music/';

const builtinEntry = (track: AmbientTrack): Music => ({
  musicId: track.musicId,
  name: track.name,
  url: `${BUILTIN_MUSIC_URL_PREFIX}${ambientFileName(track)}`,
  durationMs: track.seconds * 1000,
  tags: [...track.tags],
});

const uploadEntry = (row: UploadRow): Music => ({
  musicId: row.assetId,
  name: row.name,
  url: row.url,
  durationMs: row.durationMs ?? 0,
  tags: [UPLOAD_TAG],
});

export function builtinMusic(): Music[] {
  return AMBIENT_TRACKS.map(builtinEntry);
}

/** A user's library holds at most this many of their uploads (newest first). */
const USER_TRACKS = 200;

/** new_bg_music_list: the built-in tracks, then the user's uploaded audio, newest first. */
export async function listMusic(uploads: UploadsRepository, userId: number): Promise<Music[]> {
  const own = await uploads.listByKind(userId, 'audio', { pageIndex: 1, pageSize: USER_TRACKS });
  return [...builtinMusic(), ...own.items.map(uploadEntry)];
}

/**
 * search_music: tracks whose name or a tag matches every word of the keyword (split at spaces
 * and Chinese punctuation). A word matches when it contains a tag (「舒缓的音乐」 finds 舒缓) or
 * a tag or the name contains it; Latin letters in any case.
 */
export function matchMusic(list: Music[], keyword: string): Music[] {
  const words = keyword
    .toLowerCase()
    .split(/[\s,，、;；。]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  return list.filter((music) => {
    const name = music.name.toLowerCase();
    const tags = music.tags.map((tag) => tag.toLowerCase());
    return words.every(
      (word) => name.includes(word) || tags.some((tag) => tag.includes(word) || word.includes(tag)),
    );
  });
}

/** The built-in track a work gets when it chose none: one per work, so a re-render keeps it. */
export function defaultMusicId(workId: number): number {
  const track = AMBIENT_TRACKS[workId % AMBIENT_TRACKS.length] ?? AMBIENT_TRACKS[0];
  return track?.musicId ?? NO_MUSIC_ID;
}

export interface MusicResolveOptions {
  repos: Pick<Repositories, 'uploads'>;
  mediaDir: string;
  /**
   * Where uploads are read from (app.stores, a pipeline's options), and the media store that
   * shares the built-in tracks between processes.
   */
  stores: { uploads: MediaStore; media?: MediaStore };
}

/** The store key of an upload URL `/uploads/<name>` (a stored name never has a folder in it). */
export function uploadKey(url: string): string | null {
  const name = url.startsWith('/uploads/') ? url.slice('/uploads/'.length) : '';
  if (!name || /[/\\]/.test(name) || name.startsWith('.')) return null;
  return name;
}

/**
 * A local file of the upload at this URL (with an object store, a copy in this process's cache
 * folder, so a worker on another machine can read it); null for a URL that is not an upload's
 * or an upload that is not stored.
 */
export async function uploadedLocalFile(
  stores: { uploads: MediaStore },
  url: string,
): Promise<string | null> {
  const key = uploadKey(url);
  return key ? stores.uploads.cached(key) : null;
}

/**
 * The file to play for a music id (pipelines): a built-in track (generated now if it is the
 * first use), the user's own uploaded audio, or null for 0 (no music). Another user's upload,
 * or an upload that is not audio, is "not found" like a missing one (the user's fault: a
 * UserInputError, no refund).
 */
export async function resolveMusic(
  options: MusicResolveOptions,
  userId: number,
  musicId: number,
): Promise<string | null> {
  if (musicId === NO_MUSIC_ID) return null;
  if (musicId < 0) {
    const track = ambientTrackByMusicId(musicId);
    if (!track) throw new UserInputError('「背景音乐」不存在，请重新选择');
    return ensureAmbientTrack(
      musicLibraryDir(options.mediaDir),
      track.id,
      {},
      options.stores.media,
    ).catch((error: unknown) => {
      throw new StageError('内置背景音乐生成失败，请稍后重试', {
        provider: 'ffmpeg',
        cause: error,
      });
    });
  }
  const row = await options.repos.uploads.findOwned(userId, musicId);
  const file = row?.kind === 'audio' ? await uploadedLocalFile(options.stores, row.url) : null;
  if (!file) throw new UserInputError('「背景音乐」不存在或不属于你，请重新选择');
  return file;
}

/**
 * /api/edit/delete: forgets the user's upload and removes its file; false when the asset is
 * not theirs (or does not exist). The row goes first: a file left by a crash is only disk.
 */
export async function deleteUpload(
  uploads: UploadsRepository,
  store: MediaStore,
  userId: number,
  assetId: number,
): Promise<boolean> {
  const row = await uploads.deleteOwned(userId, assetId);
  if (!row) return false;
  const key = uploadKey(row.url);
  // From the store every process reads (a missing key is no error). Copies in the processes'
  // cache folders may stay: `cached` asks the store first, so they are never used again.
  if (key) await store.remove(key);
  return true;
}
