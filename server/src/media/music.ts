import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegToFile, probeWithFfmpeg, type FfmpegOptions } from './ffmpeg';

export interface AmbientTrack {
  id: string;
  name: string;
  /** Chord tones in Hz: integers, so every tone completes whole cycles over the loop. */
  chord: number[];
  /** Slow swell frequency (Hz); a divisor of 1/LOOP_SECONDS keeps the loop seamless. */
  swell: number;
}

const LOOP_SECONDS = 30;

/** The built-in library: synthesised ambient pads (sine chords with a swell plus soft noise). */
export const AMBIENT_TRACKS: AmbientTrack[] = [
  { id: 'ambient-calm', name: '宁静氛围', chord: [220, 277, 330, 440], swell: 0.1 },
  { id: 'ambient-warm', name: '温暖铺底', chord: [196, 247, 294, 392], swell: 0.2 },
  { id: 'ambient-mystery', name: '悬疑夜色', chord: [174, 208, 262, 349], swell: 0.1 },
  { id: 'ambient-bright', name: '明亮清晨', chord: [262, 330, 392, 523], swell: 0.2 },
];

function expression(track: AmbientTrack): string {
  const swell = `(0.65+0.35*sin(2*PI*${track.swell}*t))`;
  const tones = track.chord
    .map((f, i) => `${(0.16 / (i + 1)).toFixed(3)}*sin(2*PI*${f}*t)`)
    .join('+');
  return `${swell}*(${tones})`;
}

/**
 * Writes the track into `cacheDir` once (AAC in .m4a) and returns its path; later calls reuse
 * it. Generated rather than shipped: no audio assets with licences to track.
 */
export async function ensureAmbientTrack(
  cacheDir: string,
  id: string,
  options: FfmpegOptions = {},
): Promise<string> {
  const track = AMBIENT_TRACKS.find((t) => t.id === id);
  if (!track) throw new Error(`未知的内置音乐：${id}`);
  await mkdir(cacheDir, { recursive: true });
  const out = path.join(cacheDir, `${id}.m4a`);
  const existing = await stat(out).catch(() => null);
  if (existing && existing.size > 0) return out;
  await ffmpegToFile(
    [
      '-f',
      'lavfi',
      '-i',
      `aevalsrc='${expression(track)}':s=44100:c=stereo:d=${LOOP_SECONDS}`,
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=c=pink:a=0.03:d=${LOOP_SECONDS}:r=44100`,
      '-filter_complex',
      // Low-passed pink noise as "air" under the chord, then a gentle echo for space.
      '[1:a]lowpass=f=900,aformat=channel_layouts=stereo[n];[0:a][n]amix=inputs=2:duration=first,aecho=0.8:0.6:120:0.3[a]',
      '-map',
      '[a]',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
    ],
    out,
    {
      ...options,
      validate: async (tmp) => {
        const info = await probeWithFfmpeg(tmp, options);
        if (!info.durationMs || info.durationMs < (LOOP_SECONDS - 1) * 1000)
          throw new Error(`内置音乐生成不完整：${id}`);
      },
    },
  );
  return out;
}
