import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Aspect } from './captions';
import { ffmpegToFile, probeWithFfmpeg, type FfmpegOptions } from './ffmpeg';
import { cjkFonts } from './fonts';
import { MUSIC_VOLUME_DEFAULT, TARGET_LOUDNESS_LUFS } from '@kol/shared-sdk/contracts';

export const FPS = 30;

export interface ComposeShot {
  imagePath: string;
  durationMs: number;
}

export interface ComposeInput {
  aspect: Aspect;
  shots: ComposeShot[];
  narrationWav: string;
  musicPath?: string;
  /** Captions timed on the whole narration (see captions.ts). */
  assPath: string;
  srtPath: string;
}

export interface ComposeOptions extends FfmpegOptions {
  /** Output size; defaults to 1080x1920 (9:16) or 1920x1080 (16:9). Tests pass a smaller one. */
  size?: { width: number; height: number };
  /** Parallel shot encodes; defaults to the core count. */
  concurrency?: number;
  /** x264 preset: veryfast is the measured balance here (ultrafast is 16 Mb/s, previews only). */
  preset?: string;
  crf?: number;
  /** Music gain before ducking (linear). */
  musicVolume?: number;
  /** Base name of the outputs in workDir. */
  name?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface ComposeResult {
  videoPath: string;
  srtPath: string;
  coverPath: string;
  durationMs: number;
}

/** The contract's loudness target: the quality report and the result page read the same. */
export const TARGET_LUFS = TARGET_LOUDNESS_LUFS;

export const defaultSize = (aspect: Aspect): { width: number; height: number } =>
  aspect === '9:16' ? { width: 1080, height: 1920 } : { width: 1920, height: 1080 };

export type Motion = 'zoom-in' | 'zoom-out' | 'pan-right' | 'pan-left';
/** A still's motion by its index: the order kenBurnsFilters gives, and exports repeat. */
export const MOTIONS: readonly Motion[] = ['zoom-in', 'pan-right', 'zoom-out', 'pan-left'];

/**
 * What zoompan shows of the (cover-cropped) picture at progress `p` of the shot (0 first frame,
 * 1 last): the zoom, and the shown window's top-left as a share of the picture. The exports
 * (video/export) turn it into an editor's keyframes, so it must stay the same as `zoompan`.
 */
export function motionAt(motion: Motion, p: number): { zoom: number; left: number; top: number } {
  const zoom = motion === 'zoom-in' ? 1 + 0.15 * p : motion === 'zoom-out' ? 1.15 - 0.15 * p : 1.12;
  const room = 1 - 1 / zoom;
  const left =
    motion === 'pan-right' ? room * p : motion === 'pan-left' ? room * (1 - p) : room / 2;
  return { zoom, left, top: room / 2 };
}

/** zoompan expressions; `on` is the output frame index and n the shot's frame count. */
function zoompan(motion: Motion, n: number, w: number, h: number): string {
  const p = `(on/${Math.max(1, n - 1)})`;
  const centre = { x: 'iw/2-(iw/zoom/2)', y: 'ih/2-(ih/zoom/2)' };
  const exprs: Record<Motion, { z: string; x: string; y: string }> = {
    'zoom-in': { z: `1+0.15*${p}`, ...centre },
    'zoom-out': { z: `1.15-0.15*${p}`, ...centre },
    'pan-right': { z: '1.12', x: `(iw-iw/zoom)*${p}`, y: centre.y },
    'pan-left': { z: '1.12', x: `(iw-iw/zoom)*(1-${p})`, y: centre.y },
  };
  const e = exprs[motion];
  return `zoompan=z='${e.z}':x='${e.x}':y='${e.y}':d=${n}:s=${w}x${h}:fps=${FPS}`;
}

/** Quotes a value for a filtergraph option (single quotes; a quote itself cannot appear). */
export function filterValue(value: string): string {
  if (/['\n]/.test(value)) throw new Error(`路径中含有不支持的字符：${value}`);
  return `'${value.replace(/\\/g, '/')}'`;
}

export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return results;
}

export async function expectDuration(
  file: string,
  expectedMs: number,
  what: string,
  options: FfmpegOptions,
): Promise<void> {
  const info = await probeWithFfmpeg(file, options);
  if (info.durationMs === null || Math.abs(info.durationMs - expectedMs) > 500)
    throw new Error(`${what}不完整：时长 ${info.durationMs ?? '未知'} ms，应为 ${expectedMs} ms`);
}

function parseLoudnormJson(stderr: string): Record<string, string> {
  const start = stderr.lastIndexOf('{');
  const end = stderr.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error('无法读取响度测量结果');
  return JSON.parse(stderr.slice(start, end + 1)) as Record<string, string>;
}

/**
 * Part boundaries in frames, rounded on the cumulative timeline so rounding never drifts;
 * `durationMs` is the whole video's length at whole frames.
 */
export function frameBoundaries(durationsMs: number[]): {
  boundaries: number[];
  durationMs: number;
} {
  const boundaries = [0];
  let acc = 0;
  for (const d of durationsMs) {
    acc += Math.max(0, d);
    boundaries.push(Math.round((acc * FPS) / 1000));
  }
  const totalFrames = boundaries[boundaries.length - 1] ?? 0;
  if (totalFrames <= 0) throw new Error('分镜总时长为零');
  return { boundaries, durationMs: Math.round((totalFrames * 1000) / FPS) };
}

/** Ken Burns filters for a still (`[0:v]` in, the output size out), motion varied by index. */
export function kenBurnsFilters(
  index: number,
  frames: number,
  size: { width: number; height: number },
): string[] {
  // Upscaled input gives zoompan sub-pixel room: its crop offsets are whole input pixels.
  const sw = Math.round((size.width * 1.5) / 2) * 2;
  const sh = Math.round((size.height * 1.5) / 2) * 2;
  const motion = MOTIONS[index % MOTIONS.length] ?? 'zoom-in';
  return [
    `scale=${sw}:${sh}:force_original_aspect_ratio=increase,crop=${sw}:${sh},setsar=1`,
    zoompan(motion, frames, size.width, size.height),
  ];
}

/**
 * Encodes one part (a shot, a segment) of exactly `frames` frames: `filters` turn the first
 * input's video into the picture at the output size, then the captions of the whole narration
 * are burned in the same pass. Its frames are shifted to their global time before `subtitles`
 * and back after, so a caption crossing a part boundary continues seamlessly and no per-part
 * caption files are needed. Same encoder settings for every part, so `-c copy` concat is clean.
 */
export async function renderPart(
  part: {
    inputArgs: string[];
    filters: string[];
    firstFrame: number;
    frames: number;
    /** The narration's ASS, copied to a path without filtergraph-special characters. */
    assPath: string;
  },
  out: string,
  options: ComposeOptions = {},
): Promise<string> {
  const ff: FfmpegOptions = { ffmpegPath: options.ffmpegPath };
  const graph = [
    `[0:v]${part.filters.join(',')}`,
    `setpts=PTS-STARTPTS+${(part.firstFrame / FPS).toFixed(6)}/TB`,
    `subtitles=filename=${filterValue(part.assPath)}:fontsdir=${filterValue(cjkFonts().dir)}`,
    'setpts=PTS-STARTPTS',
    'format=yuv420p[v]',
  ].join(',');
  await ffmpegToFile(
    [
      ...part.inputArgs,
      '-filter_complex',
      graph,
      '-map',
      '[v]',
      '-frames:v',
      String(part.frames),
      '-r',
      String(FPS),
      '-c:v',
      'libx264',
      '-preset',
      options.preset ?? 'veryfast',
      '-crf',
      String(options.crf ?? 23),
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-video_track_timescale',
      '15360',
    ],
    out,
    {
      ...ff,
      validate: (tmp) =>
        expectDuration(tmp, Math.round((part.frames * 1000) / FPS), '分镜视频', ff),
    },
  );
  return out;
}

/**
 * The final pass shared by every composition: parts joined by the concat demuxer without
 * re-encoding; the narration, and the music looped and ducked under it, mixed and normalised
 * (two-pass linear loudnorm) to TARGET_LUFS; the SRT beside the video; the cover.
 */
export async function finishComposition(
  input: {
    /** Encoded parts in order (same codec settings), `durationMs` long together. */
    parts: string[];
    narrationWav: string;
    musicPath?: string;
    srtPath: string;
    durationMs: number;
    /** Scratch folder of the composition (the caller removes it). */
    tmpDir: string;
  },
  workDir: string,
  options: ComposeOptions = {},
): Promise<ComposeResult> {
  if (input.parts.length === 0) throw new Error('没有可合成的分镜');
  const ff: FfmpegOptions = { ffmpegPath: options.ffmpegPath };
  const name = options.name ?? 'video';
  const { durationMs, tmpDir } = input;
  const list = input.parts.map((f) => `file ${filterValue(f)}`).join('\n');
  const listPath = path.join(tmpDir, 'parts.txt');
  await writeFile(listPath, `${list}\n`, 'utf8');

  // Audio pass: voice padded to the picture's length, music looped and ducked under the
  // voice, then measured for a linear (two-pass) loudnorm, which keeps speech dynamics.
  const seconds = (durationMs / 1000).toFixed(3);
  const fmt = 'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';
  const mixPath = path.join(tmpDir, 'mix.wav');
  const audioInputs = ['-i', input.narrationWav];
  let graph: string;
  if (input.musicPath) {
    audioInputs.push('-stream_loop', '-1', '-i', input.musicPath);
    graph = [
      `[0:a]${fmt},apad,atrim=0:${seconds},asplit=2[voice][key]`,
      `[1:a]${fmt},volume=${options.musicVolume ?? MUSIC_VOLUME_DEFAULT},atrim=0:${seconds}[music]`,
      '[music][key]sidechaincompress=threshold=0.02:ratio=10:attack=20:release=400[ducked]',
      // ffmpeg 4.1's amix has no `normalize` and halves each input; loudnorm restores level.
      '[voice][ducked]amix=inputs=2:duration=first:dropout_transition=0,asplit=2[out][meas]',
    ].join(';');
  } else {
    graph = `[0:a]${fmt},apad,atrim=0:${seconds},asplit=2[out][meas]`;
  }
  graph += `;[meas]loudnorm=I=${TARGET_LUFS}:TP=-1.5:LRA=20:print_format=json[m]`;
  const measured = parseLoudnormJson(
    await ffmpegToFile(
      [...audioInputs, '-filter_complex', graph, '-map', '[out]', '-c:a', 'pcm_s16le'],
      mixPath,
      {
        ...ff,
        argsAfterOutput: ['-map', '[m]', '-f', 'null', '-'],
      },
    ),
  );
  const m = (k: string): string => {
    const v = measured[k];
    if (v === undefined || !Number.isFinite(Number(v))) throw new Error(`响度测量结果缺少 ${k}`);
    return v;
  };
  // Silence measures -inf/-70: then there is nothing to normalise.
  const silent = Number(m('input_i')) < -60;
  // loudnorm works in 3 s windows and misses the target by several LU on a shorter clip: that
  // one gets the measured gain itself (what linear loudnorm applies), peaks limited to -1.5 dBTP.
  const short = durationMs < 3500;
  const loudnorm = silent
    ? 'anull'
    : short
      ? `volume=${(TARGET_LUFS - Number(m('input_i'))).toFixed(2)}dB,alimiter=limit=0.84:level=false`
      : `loudnorm=I=${TARGET_LUFS}:TP=-1.5:LRA=20:measured_I=${m('input_i')}:measured_TP=${m('input_tp')}:measured_LRA=${m('input_lra')}:measured_thresh=${m('input_thresh')}:offset=${m('target_offset')}:linear=true`;

  const videoPath = path.join(workDir, `${name}.mp4`);
  await ffmpegToFile(
    [
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      listPath,
      '-i',
      mixPath,
      '-filter_complex',
      // Explicit layouts: ffmpeg 4.1 reads the WAV's layout as a guess and then fails to
      // negotiate one between aresample and the AAC encoder.
      `[1:a]aformat=channel_layouts=stereo,${loudnorm},aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]`,
      '-map',
      '0:v',
      '-map',
      '[a]',
      '-c:v',
      'copy',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-t',
      seconds,
      '-movflags',
      '+faststart',
    ],
    videoPath,
    { ...ff, validate: (tmp) => expectDuration(tmp, durationMs, '成片', ff) },
  );

  const srtPath = path.join(workDir, `${name}.srt`);
  if (path.resolve(input.srtPath) !== path.resolve(srtPath)) await copyFile(input.srtPath, srtPath);

  // The cover is the first frame of the first part, captions included, as viewers see it.
  const coverPath = path.join(workDir, `${name}-cover.jpg`);
  await ffmpegToFile(
    ['-i', input.parts[0] ?? videoPath, '-frames:v', '1', '-q:v', '3'],
    coverPath,
    ff,
  );

  return { videoPath, srtPath, coverPath, durationMs };
}
