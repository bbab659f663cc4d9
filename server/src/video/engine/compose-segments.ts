import { copyFile, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Aspect } from './captions';
import {
  defaultSize,
  finishComposition,
  FPS,
  frameBoundaries,
  kenBurnsFilters,
  mapLimit,
  renderPart,
  type ComposeInput,
  type ComposeOptions,
  type ComposeResult,
} from './compose';
import { ffmpegToFile, probeWithFfmpeg, type FfmpegOptions } from './ffmpeg';

export interface SegmentMedia {
  kind: 'image' | 'video';
  path: string;
  /** Video only: the window of the source used, in ms (default the whole file). */
  startMs?: number;
  endMs?: number;
  /**
   * Video only, when the window is shorter than the segment: repeat the window (background
   * loops) instead of holding its last frame (a clip that simply ends).
   */
  loop?: boolean;
}

export interface ComposeSegment {
  media: SegmentMedia;
  durationMs: number;
  /**
   * Video filters of this segment alone, applied like `videoFilters` (before them): the
   * de-duplication of a reverse video's source among a merge's other pictures.
   */
  videoFilters?: string[];
}

export interface ComposeSegmentsInput {
  aspect: Aspect;
  segments: ComposeSegment[];
  narrationWav: string;
  musicPath?: string;
  /** Captions timed on the whole narration (see captions.ts). */
  assPath: string;
  srtPath: string;
  /**
   * Extra ffmpeg video filters applied to every segment after it is scaled to the output size
   * (de-duplication presets: hflip, hue…). They must keep the frame size; the segment is still
   * cut to its exact frame count afterwards.
   */
  videoFilters?: string[];
}

/** A video window shorter than this is treated as the whole rest of the file. */
const MIN_WINDOW_MS = 100;

/**
 * The input arguments and leading filters of a video segment: trimmed to its window, looped
 * or held on its last frame when the window is shorter than the segment, scaled and cropped
 * to cover the output size at 30 fps.
 */
async function videoInput(
  media: SegmentMedia,
  durationMs: number,
  size: { width: number; height: number },
  scratch: string,
  options: ComposeOptions,
): Promise<{ inputArgs: string[]; filters: string[] }> {
  const ff: FfmpegOptions = { ffmpegPath: options.ffmpegPath };
  const info = await probeWithFfmpeg(media.path, ff);
  // A still probes as a one-frame "video" of 40 ms: refused too.
  if (!info.video || !info.durationMs || info.durationMs < MIN_WINDOW_MS)
    throw new Error(`素材不是可用的视频：${path.basename(media.path)}`);
  const fileMs = info.durationMs;
  const start = Math.min(Math.max(0, media.startMs ?? 0), Math.max(0, fileMs - MIN_WINDOW_MS));
  const end = Math.min(fileMs, media.endMs ?? fileMs);
  const windowMs = Math.max(MIN_WINDOW_MS, end - start);
  const cover = [
    `fps=${FPS}`,
    `scale=${size.width}:${size.height}:force_original_aspect_ratio=increase`,
    `crop=${size.width}:${size.height}`,
    'setsar=1',
  ];
  const secs = (ms: number) => (ms / 1000).toFixed(3);

  if (windowMs >= durationMs) {
    // Long enough: read from the window's start; the frame count cuts it.
    return { inputArgs: ['-ss', secs(start), '-i', media.path], filters: cover };
  }
  if (!media.loop) {
    const hold = `tpad=stop_mode=clone:stop_duration=${secs(durationMs - windowMs + 1000)}`;
    return {
      inputArgs: ['-ss', secs(start), '-t', secs(windowMs), '-i', media.path],
      filters: [...cover, hold],
    };
  }
  if (start === 0 && end >= fileMs) {
    return { inputArgs: ['-stream_loop', '-1', '-i', media.path], filters: cover };
  }
  // `-stream_loop` restarts at the file's beginning, not at `-ss`: a window inside the file is
  // first cut out (near-lossless, fast preset) so the loop repeats exactly that window.
  const windowFile = path.join(scratch, 'window.mp4');
  await ffmpegToFile(
    [
      '-ss',
      secs(start),
      '-t',
      secs(windowMs),
      '-i',
      media.path,
      '-map',
      '0:v:0',
      '-an',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '12',
      '-pix_fmt',
      'yuv420p',
    ],
    windowFile,
    ff,
  );
  return { inputArgs: ['-stream_loop', '-1', '-i', windowFile], filters: cover };
}

/**
 * Composes a video from segments that are each a still (Ken Burns motion, as composeVideo) or
 * a video clip (trimmed, looped or held, covering the frame): one ffmpeg per segment with the
 * captions burned in the same pass, then composeVideo's final pass (concat without re-encoding,
 * narration and ducked music normalised to -16 LUFS, SRT, cover).
 */
export async function composeSegments(
  input: ComposeSegmentsInput,
  workDir: string,
  options: ComposeOptions = {},
): Promise<ComposeResult> {
  if (input.segments.length === 0) throw new Error('没有可合成的片段');
  const size = options.size ?? defaultSize(input.aspect);
  if (size.width % 2 || size.height % 2) throw new Error('画面尺寸必须为偶数');
  const name = options.name ?? 'video';
  const tmpDir = path.join(workDir, `.${name}-parts`);
  await mkdir(tmpDir, { recursive: true });

  try {
    const { boundaries, durationMs } = frameBoundaries(input.segments.map((s) => s.durationMs));
    const assLocal = path.join(tmpDir, 'captions.ass');
    await copyFile(input.assPath, assLocal);
    const extra = input.videoFilters ?? [];

    const total = input.segments.length + 1;
    let done = 0;
    const parts = await mapLimit(
      input.segments,
      options.concurrency ?? os.availableParallelism(),
      async (segment, i) => {
        const first = boundaries[i] ?? 0;
        const frames = (boundaries[i + 1] ?? first) - first;
        if (frames <= 0) return null;
        const label = String(i).padStart(3, '0');
        const scratch = path.join(tmpDir, `segment-${label}`);
        await mkdir(scratch, { recursive: true });
        const segmentMs = Math.round((frames * 1000) / FPS);
        const source =
          segment.media.kind === 'video'
            ? await videoInput(segment.media, segmentMs, size, scratch, options)
            : {
                inputArgs: ['-i', segment.media.path],
                filters: kenBurnsFilters(i, frames, size),
              };
        const out = await renderPart(
          {
            inputArgs: source.inputArgs,
            filters: [...source.filters, ...(segment.videoFilters ?? []), ...extra],
            firstFrame: first,
            frames,
            assPath: assLocal,
          },
          path.join(tmpDir, `segment-${label}.mp4`),
          options,
        );
        await rm(scratch, { recursive: true, force: true });
        options.onProgress?.(++done, total);
        return out;
      },
    );

    const result = await finishComposition(
      {
        parts: parts.filter((f): f is string => f !== null),
        narrationWav: input.narrationWav,
        ...(input.musicPath ? { musicPath: input.musicPath } : {}),
        srtPath: input.srtPath,
        durationMs,
        tmpDir,
      },
      workDir,
      { ...options, name },
    );
    options.onProgress?.(total, total);
    return result;
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}

/**
 * Stills only (the comic clip), in the measured fast recipe (TOOLCHAIN.md): one ffmpeg per shot, the still decoded once and
 * zoompan with d=frames (`-loop 1` decodes the picture every frame, 30 to 50 times slower),
 * captions burned in that same pass; shots joined by the concat demuxer with `-c copy`; the
 * audio (narration, looped music ducked under it) mixed and normalised in the final pass.
 * Captions: every shot burns the one ASS file of the whole narration (see renderPart).
 */
export function composeVideo(
  input: ComposeInput,
  workDir: string,
  options: ComposeOptions = {},
): Promise<ComposeResult> {
  return composeSegments(
    {
      aspect: input.aspect,
      segments: input.shots.map((shot) => ({
        media: { kind: 'image', path: shot.imagePath },
        durationMs: shot.durationMs,
      })),
      narrationWav: input.narrationWav,
      ...(input.musicPath ? { musicPath: input.musicPath } : {}),
      assPath: input.assPath,
      srtPath: input.srtPath,
    },
    workDir,
    options,
  );
}
