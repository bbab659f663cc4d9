import { describe, expect, it, jest } from '@jest/globals';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  builtinMusic,
  defaultMusicId,
  matchMusic,
  musicLibraryDir,
} from '../../../src/video/library/music/catalog';
import { probeWithFfmpeg } from '../../../src/video/engine/ffmpeg';
import { AMBIENT_TRACKS, ensureAmbientTrack } from '../../../src/video/library/music/ambient';
import { testDataDir } from '../../helpers/test-app';

// The built-in tracks open no database (resolveMusic, which does, is music.test.ts): this file
// runs once, not again on PostgreSQL. Every built-in track is synthesised once by real ffmpeg.
jest.setTimeout(300_000);

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
    const dir = musicLibraryDir(path.join(testDataDir(), 'media'));
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

  it('gives each work a stable built-in default', () => {
    expect(defaultMusicId(7)).toBe(defaultMusicId(7));
    expect(AMBIENT_TRACKS.some((t) => t.musicId === defaultMusicId(7))).toBe(true);
  });
});
