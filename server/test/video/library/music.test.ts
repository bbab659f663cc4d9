import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  builtinMusic,
  defaultMusicId,
  matchMusic,
  musicLibraryDir,
  NO_MUSIC_ID,
  resolveMusic,
} from '../../../src/video/library/music/catalog';
import { probeWithFfmpeg } from '../../../src/video/engine/ffmpeg';
import { AMBIENT_TRACKS, ensureAmbientTrack } from '../../../src/video/library/music/ambient';
import { UserInputError } from '../../../src/tasks/errors';
import { createTestApp, createUser } from '../../helpers/test-app';

// Every built-in track is synthesised once by real ffmpeg.
jest.setTimeout(300_000);

let app: FastifyInstance;
beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

async function newUserId(): Promise<number> {
  const { username } = await createUser(app);
  const user = await app.users.findByUsername(username);
  if (!user) throw new Error('user not created');
  return user.id;
}

describe('built-in tracks', () => {
  it('have negative ids, names, tags and loops whose every period divides the length', () => {
    const ids = AMBIENT_TRACKS.map((t) => t.musicId);
    expect(ids.every((id) => id < 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(AMBIENT_TRACKS.length).toBeGreaterThanOrEqual(10);
    const tags = new Set(AMBIENT_TRACKS.flatMap((t) => t.tags));
    for (const tag of ['舒缓', '悬疑', '温暖', '紧张', '古风']) expect(tags.has(tag)).toBe(true);
    const whole = (x: number) => Math.abs(x - Math.round(x)) < 1e-9;
    for (const track of AMBIENT_TRACKS) {
      expect(track.chord.every(Number.isInteger)).toBe(true);
      expect(whole(track.swell * track.seconds)).toBe(true);
      if (track.pulse) {
        expect(whole((track.seconds * track.pulse.rate) / track.pulse.notes.length)).toBe(true);
        expect(track.pulse.notes.every(Number.isInteger)).toBe(true);
      }
    }
  });

  it('are generated once as playable MP3s of their stated length', async () => {
    const dir = musicLibraryDir(app.config.mediaDir);
    for (const track of AMBIENT_TRACKS) {
      const file = await ensureAmbientTrack(dir, track.id);
      const info = await probeWithFfmpeg(file);
      expect(info.audio).toEqual({ codec: 'mp3', sampleRate: 44_100 });
      expect(Math.abs((info.durationMs ?? 0) - track.seconds * 1000)).toBeLessThan(300);
    }
    // Idempotent: a second call answers the same file untouched; concurrent first uses share one run.
    const first = AMBIENT_TRACKS[0]?.id ?? '';
    const file = path.join(dir, `${first}.mp3`);
    const before = (await stat(file)).mtimeMs;
    expect(await ensureAmbientTrack(dir, first)).toBe(file);
    expect((await stat(file)).mtimeMs).toBe(before);
    await expect(ensureAmbientTrack(dir, 'nope')).rejects.toThrow('未知的内置音乐');
  });

  it('are listed with their URL and duration, and found by name or mood', () => {
    const list = builtinMusic();
    expect(list[0]).toEqual({
      musicId: -1,
      name: '宁静氛围',
      url: '/media/library/music/ambient-calm.mp3',
      durationMs: 30_000,
      tags: ['舒缓', '治愈', '安静'],
    });
    const ancient = matchMusic(list, '古风');
    expect(ancient.length).toBeGreaterThanOrEqual(2);
    expect(ancient.every((m) => m.tags.includes('古风'))).toBe(true);
    // A sentence containing a tag finds it; several words must all match.
    expect(matchMusic(list, '想要舒缓的音乐').length).toBe(
      list.filter((m) => m.tags.includes('舒缓')).length,
    );
    expect(matchMusic(list, '紧张 悬疑').map((m) => m.name)).toEqual(['紧张追逐']);
    expect(matchMusic(list, '夕照').map((m) => m.name)).toEqual(['宫墙夕照']);
    expect(matchMusic(list, '摇滚')).toEqual([]);
  });
});

describe('resolveMusic', () => {
  it('answers the built-in file, the owner’s uploaded audio, or nothing for 0', async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const options = {
      repos: app.repos,
      mediaDir: app.config.mediaDir,
      stores: app.stores,
    };
    const builtin = await resolveMusic(options, alice, -2);
    expect(builtin).toBe(path.join(musicLibraryDir(app.config.mediaDir), 'ambient-warm.mp3'));
    expect(await resolveMusic(options, alice, NO_MUSIC_ID)).toBeNull();

    await mkdir(app.config.uploadsDir, { recursive: true });
    await writeFile(path.join(app.config.uploadsDir, 'abc123.mp3'), 'not really audio');
    const { assetId } = await app.uploads.recordMedia(alice, {
      url: '/uploads/abc123.mp3',
      name: '我的歌.mp3',
      kind: 'audio',
      durationMs: 12_000,
    });
    expect(await resolveMusic(options, alice, assetId)).toBe(
      path.join(app.config.uploadsDir, 'abc123.mp3'),
    );
    // Another user's upload, a video upload and an unknown built-in are the user's mistake.
    await expect(resolveMusic(options, bob, assetId)).rejects.toThrow(UserInputError);
    await expect(resolveMusic(options, bob, assetId)).rejects.toThrow(
      '「背景音乐」不存在或不属于你',
    );
    const video = await app.uploads.recordMedia(alice, {
      url: '/uploads/def456.mp4',
      name: 'clip.mp4',
      kind: 'video',
      durationMs: 5_000,
    });
    await expect(resolveMusic(options, alice, video.assetId)).rejects.toThrow(UserInputError);
    await expect(resolveMusic(options, alice, -999)).rejects.toThrow('「背景音乐」不存在');
  });

  it('gives each work a stable built-in default', () => {
    expect(defaultMusicId(7)).toBe(defaultMusicId(7));
    expect(AMBIENT_TRACKS.some((t) => t.musicId === defaultMusicId(7))).toBe(true);
  });
});
