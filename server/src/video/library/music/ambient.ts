import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaStore } from '../../../storage';
import { ffmpegToFile, probeWithFfmpeg, type FfmpegOptions } from '../../engine/ffmpeg';
import { sharedLibraryFile } from '../shared';

export interface AmbientTrack {
  /** File name in the cache (stable: a generated file is found again by it). */
  id: string;
  /**
   * The id users and settings see: negative for the built-in tracks, so it never equals an
   * uploaded asset id (positive) — see catalog.ts.
   */
  musicId: number;
  name: string;
  /** Chinese mood tags, matched by search_music. */
  tags: string[];
  /** Loop length; every period below divides it, so the loop is seamless. */
  seconds: number;
  /** Chord tones in Hz: integers, so every tone completes whole cycles over the loop. */
  chord: number[];
  /** Slow swell frequency (Hz); `swell * seconds` is a whole number. */
  swell: number;
  /** A soft plucked line over the pad: `rate` notes a second cycling through `notes` (Hz). */
  pulse?: { rate: number; notes: number[] };
}

/**
 * The built-in library: synthesised ambient pads (sine chords with a swell plus soft noise),
 * some with a plucked line. Generated rather than shipped: no audio assets with licences to
 * track. Pentatonic chords and lines (宫商角徵羽) for the 古风 tracks.
 */
export const AMBIENT_TRACKS: AmbientTrack[] = [
  {
    id: 'ambient-calm',
    musicId: -1,
    name: '宁静氛围',
    tags: ['舒缓', '治愈', '安静'],
    seconds: 30,
    chord: [220, 277, 330, 440],
    swell: 0.1,
  },
  {
    id: 'ambient-warm',
    musicId: -2,
    name: '温暖铺底',
    tags: ['温暖', '舒缓'],
    seconds: 30,
    chord: [196, 247, 294, 392],
    swell: 0.2,
  },
  {
    id: 'ambient-mystery',
    musicId: -3,
    name: '悬疑夜色',
    tags: ['悬疑', '夜晚', '神秘'],
    seconds: 30,
    chord: [174, 208, 262, 349],
    swell: 0.1,
  },
  {
    id: 'ambient-bright',
    musicId: -4,
    name: '明亮清晨',
    tags: ['欢快', '明亮', '清新'],
    seconds: 30,
    chord: [262, 330, 392, 523],
    swell: 0.2,
  },
  {
    id: 'guqin-mountain',
    musicId: -5,
    name: '古韵悠长',
    tags: ['古风', '舒缓', '国风'],
    seconds: 40,
    chord: [196, 220, 262, 294, 330],
    swell: 0.1,
    pulse: { rate: 1, notes: [392, 440, 523, 587, 659, 587, 523, 440] },
  },
  {
    id: 'tension-chase',
    musicId: -6,
    name: '紧张追逐',
    tags: ['紧张', '悬疑', '动作'],
    seconds: 30,
    chord: [110, 131, 165, 208],
    swell: 0.5,
    pulse: { rate: 4, notes: [110, 110, 131, 110] },
  },
  {
    id: 'warm-memory',
    musicId: -7,
    name: '温情回忆',
    tags: ['温暖', '治愈', '回忆'],
    seconds: 48,
    chord: [175, 220, 262, 349],
    swell: 0.25,
    pulse: { rate: 0.5, notes: [523, 440, 392, 349] },
  },
  {
    id: 'deep-space',
    musicId: -8,
    name: '深空漫游',
    tags: ['科技', '悬疑', '空灵'],
    seconds: 60,
    chord: [110, 165, 220, 330, 440],
    swell: 0.05,
  },
  {
    id: 'epic-rise',
    musicId: -9,
    name: '史诗序章',
    tags: ['史诗', '紧张', '大气'],
    seconds: 30,
    chord: [98, 147, 196, 294],
    swell: 0.1,
    pulse: { rate: 2, notes: [196, 196, 294, 262] },
  },
  {
    id: 'rain-night',
    musicId: -10,
    name: '雨夜轻语',
    tags: ['舒缓', '治愈', '夜晚'],
    seconds: 60,
    chord: [233, 294, 349, 440],
    swell: 0.05,
  },
  {
    id: 'palace-dusk',
    musicId: -11,
    name: '宫墙夕照',
    tags: ['古风', '温暖', '国风'],
    seconds: 40,
    chord: [147, 220, 247, 294, 370],
    swell: 0.1,
    pulse: { rate: 0.5, notes: [587, 494, 440, 370, 440] },
  },
  {
    id: 'happy-day',
    musicId: -12,
    name: '轻快日常',
    tags: ['欢快', '温暖', '日常'],
    seconds: 32,
    chord: [262, 330, 392],
    swell: 0.25,
    pulse: { rate: 4, notes: [523, 659, 784, 659] },
  },
];

export const ambientTrackById = (id: string): AmbientTrack | undefined =>
  AMBIENT_TRACKS.find((t) => t.id === id);

export const ambientTrackByMusicId = (musicId: number): AmbientTrack | undefined =>
  AMBIENT_TRACKS.find((t) => t.musicId === musicId);

/** The file name of a track in the cache (MP3: the browser previews it, ffmpeg loops it). */
export const ambientFileName = (track: AmbientTrack) => `${track.id}.mp3`;

function expression(track: AmbientTrack): string {
  const swell = `(0.65+0.35*sin(2*PI*${track.swell}*t))`;
  const tones = track.chord
    .map((f, i) => `${(0.16 / (i + 1)).toFixed(3)}*sin(2*PI*${f}*t)`)
    .join('+');
  const pad = `${swell}*(${tones})`;
  if (!track.pulse) return pad;
  const { rate, notes } = track.pulse;
  // The note of the moment: index = floor(t * rate) mod n, as nested ifs (aevalsrc has no arrays).
  const k = `mod(floor(t*${rate}),${notes.length})`;
  const frequency = notes
    .slice(0, -1)
    .reduceRight((rest, f, i) => `if(eq(${k},${i}),${f},${rest})`, String(notes.at(-1)));
  // Each note starts loud and decays before the next one: a pluck, not a drone.
  return `${pad}+0.12*exp(-5*mod(t*${rate},1))*sin(2*PI*t*${frequency})`;
}

/** One generation at a time per file in this process: two first uses must not both encode it. */
const pending = new Map<string, Promise<string>>();

/**
 * Writes the track into `cacheDir` once and returns its path; later calls reuse it (the file
 * is written under a temp name and renamed when whole, so a crash leaves nothing half-made).
 */
export async function ensureAmbientTrack(
  cacheDir: string,
  id: string,
  options: FfmpegOptions = {},
  shared?: MediaStore,
): Promise<string> {
  const track = ambientTrackById(id);
  if (!track) throw new Error(`未知的内置音乐：${id}`);
  const out = path.join(cacheDir, ambientFileName(track));
  const existing = await stat(out).catch(() => null);
  if (existing && existing.size > 0) return out;
  let running = pending.get(out);
  if (!running) {
    // With an object store (`shared`), made once for every process (video/library/shared.ts).
    const key = `library/music/${ambientFileName(track)}`;
    running = sharedLibraryFile(shared, key, out, async () => {
      await generate(track, out, options);
    })
      .then(() => out)
      .finally(() => pending.delete(out));
    pending.set(out, running);
  }
  return running;
}

async function generate(track: AmbientTrack, out: string, options: FfmpegOptions) {
  await mkdir(path.dirname(out), { recursive: true });
  await ffmpegToFile(
    [
      '-f',
      'lavfi',
      '-i',
      `aevalsrc='${expression(track)}':s=44100:c=stereo:d=${track.seconds}`,
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=c=pink:a=0.03:d=${track.seconds}:r=44100`,
      '-filter_complex',
      // Low-passed pink noise as "air" under the chord, then a gentle echo for space.
      '[1:a]lowpass=f=900,aformat=channel_layouts=stereo[n];[0:a][n]amix=inputs=2:duration=first,aecho=0.8:0.6:120:0.3[a]',
      '-map',
      '[a]',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '160k',
    ],
    out,
    {
      ...options,
      validate: async (tmp) => {
        const info = await probeWithFfmpeg(tmp, options);
        if (!info.durationMs || info.durationMs < (track.seconds - 1) * 1000)
          throw new Error(`内置音乐生成不完整：${track.id}`);
      },
    },
  );
  return out;
}
