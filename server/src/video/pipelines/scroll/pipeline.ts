import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { UserInputError } from '../../../tasks/errors';
import { Type } from 'typebox';
import { defineStage } from '../../../tasks/stage';
import type { StageHandler } from '../../../tasks/types';
import { scrollLines, SCROLL_COLUMN } from '../../engine/caption-lines';
import { writeCaptions, type Aspect } from '../../engine/captions';
import {
  defaultSize,
  expectDuration,
  finishComposition,
  FPS,
  frameBoundaries,
} from '../../engine/compose';
import { BackgroundVideoSchema, backgroundOf, narrationStages } from '../kit/narration';
import { ffmpegToFile } from '../../engine/ffmpeg';
import { ensureFonts } from '../../engine/frames/render-frame';
import {
  checkAborted,
  taskFiles,
  type MediaPipelineOptions,
  workIdOf,
  outputSize,
} from '../kit/pipeline';
import { finishedVideoOutputs } from '../kit/quality-report';
import { resolveWorkMusic } from '../kit/work-inputs';

/**
 * The column's geometry (line limit, font, spacing, reading band) is the SDK's SCROLL_COLUMN,
 * which the page's preview draws with too, so it shows the lines the video will.
 */
const { fontShare: FONT_SHARE, lineHeight: LINE_HEIGHT, readingBand: READING_BAND } = SCROLL_COLUMN;
/** Canvas images are limited in height; a longer text does not fit one scrolling column. */
const MAX_COLUMN_PX = 30_000;

export interface ScrollLayout {
  lines: string[];
  fontSize: number;
  lineHeight: number;
  /** Column image size. */
  width: number;
  height: number;
}

/** Lays the text out: each paragraph wrapped between words, a blank line between paragraphs. */
export function layoutScroll(
  text: string,
  size: { width: number; height: number },
  aspect: Aspect,
): ScrollLayout {
  const fontSize = Math.max(8, Math.round(size.width * FONT_SHARE[aspect]));
  const lineHeight = Math.round(fontSize * LINE_HEIGHT);
  const lines = scrollLines(text, aspect);
  const width = Math.round((size.width * SCROLL_COLUMN.widthShare) / 2) * 2;
  return { lines, fontSize, lineHeight, width, height: lines.length * lineHeight };
}

/** Draws the column: white text with a dark outline on transparency (PNG). */
async function renderColumn(layout: ScrollLayout, out: string): Promise<void> {
  const family = ensureFonts();
  const canvas = createCanvas(layout.width, Math.max(2, layout.height));
  const ctx = canvas.getContext('2d');
  ctx.font = `bold ${layout.fontSize}px "${family}"`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  ctx.lineJoin = 'round';
  ctx.lineWidth = Math.max(2, layout.fontSize / 8);
  ctx.strokeStyle = 'rgba(0,0,0,0.85)';
  ctx.fillStyle = '#ffffff';
  for (const [i, line] of layout.lines.entries()) {
    const y = (i + 0.5) * layout.lineHeight;
    ctx.strokeText(line, layout.width / 2, y);
    ctx.fillText(line, layout.width / 2, y);
  }
  await mkdir(path.dirname(out), { recursive: true });
  const tmp = `${out}.part.png`;
  await writeFile(tmp, await canvas.encode('png'));
  await rename(tmp, out);
}

/**
 * Scroll (2): the whole text scrolls upward over the background at the pace of the narration:
 * the first line is at the reading band when the voice starts and the last when it ends, at
 * the constant speed (text height / narration length) between. The column is one picture,
 * decoded once and overlaid with a time-based y; an SRT is written beside the video.
 */
export function scrollPipeline(options: MediaPipelineOptions): StageHandler[] {
  // The layout is checked before the voice is spoken: too long a text is the user's to fix.
  const { script, voice } = narrationStages(options, (out) => {
    if (layoutScroll(out.text, defaultSize(out.aspect), out.aspect).height > MAX_COLUMN_PX)
      throw new UserInputError('「文案」过长，滚屏视频放不下，请删减后再生成');
  });

  const compose = defineStage({
    name: 'compose',
    weight: 4,
    output: Type.Object({ ...BackgroundVideoSchema.properties, lines: Type.Number() }),
    async run(ctx) {
      const spec = script.output(ctx);
      const spoken = voice.output(ctx);
      const aspect = spec.aspect;
      const { width, height } = outputSize(options, aspect);
      const background = await backgroundOf(options, ctx.task.userId, spec.materialId);
      const musicPath = await resolveWorkMusic(
        options,
        ctx.task.userId,
        workIdOf(ctx),
        spec.musicId,
      );
      const speechMs = spoken.durationMs;
      const { durationMs } = frameBoundaries([speechMs]);
      const frames = Math.round((durationMs * FPS) / 1000);

      const tmpDir = path.join(ctx.workDir, 'scroll');
      await mkdir(tmpDir, { recursive: true });
      const layout = layoutScroll(spec.text, { width, height }, aspect);
      const column = path.join(tmpDir, 'column.png');
      await renderColumn(layout, column);
      const srtPath = path.join(tmpDir, 'captions.srt');
      await writeCaptions(
        spoken.cues,
        { srtPath, assPath: path.join(tmpDir, 'captions.ass') },
        { width, height },
        aspect,
      );
      checkAborted(ctx.signal);

      // y of the column's top: the first line's centre at the band at t=0, the last's at the end.
      const band = Math.round(height * READING_BAND);
      const first = layout.lineHeight / 2;
      const travel = Math.max(0, layout.height - layout.lineHeight);
      const seconds = Math.max(0.001, durationMs / 1000);
      const y = `${band - first}-${travel}*min(t/${seconds.toFixed(3)},1)`;
      const part = path.join(tmpDir, 'scroll.mp4');
      await ffmpegToFile(
        [
          '-stream_loop',
          '-1',
          '-i',
          background.path,
          '-i',
          column,
          '-filter_complex',
          [
            `[0:v]fps=${FPS},scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1[bg]`,
            // A single picture: overlay repeats it (eof_action=repeat) and moves it each frame.
            `[bg][1:v]overlay=x=(W-w)/2:y='${y}':eval=frame,format=yuv420p[v]`,
          ].join(';'),
          '-map',
          '[v]',
          '-frames:v',
          String(frames),
          '-r',
          String(FPS),
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-an',
          '-video_track_timescale',
          '15360',
        ],
        part,
        { validate: (tmp) => expectDuration(tmp, durationMs, '滚屏画面', {}) },
      );
      ctx.reportProgress(70);
      try {
        const result = await finishComposition(
          {
            parts: [part],
            narrationWav: path.join(options.mediaDir, spoken.narration),
            ...(musicPath ? { musicPath } : {}),
            srtPath,
            durationMs,
            tmpDir,
          },
          path.join(options.mediaDir, taskFiles(options, ctx).rel()),
          { name: 'video' },
        );
        ctx.reportProgress(100);
        return {
          ...(await finishedVideoOutputs(options, ctx, result, {
            aspect,
            narration: spoken.narration,
            cues: spoken.cues,
          })),
          materialId: background.materialId,
          lines: layout.lines.length,
        };
      } finally {
        await rm(tmpDir, { recursive: true, force: true });
      }
    },
  });

  return [script, voice, compose];
}
