import path from 'node:path';
import { MUSIC_VOLUME_DEFAULT } from '@kol/shared-sdk/contracts';
import type { StageContext } from '../../../tasks/types';
import { timelineOf } from '../../export/timeline';
import { writeCaptions, type Aspect, type Cue } from '../../engine/captions';
import { composeSegments, type ComposeSegment } from '../../engine/compose-segments';
import {
  captionStyleOf,
  checkAborted,
  partConcurrency,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline';
import type { FinishedVideoOutput } from './outputs';
import { finishedVideoOutputs } from './quality-report';
import { resolveWorkMusic } from './work-inputs';

/**
 * The end of every compose stage made of segments (pictures or clips): the captions written in
 * the work's style, the segments rendered over the narration and the asked (or default) music,
 * the outputs
 * get_work_result reads (the quality report among them). The stage decides only what the
 * segments are.
 */
export async function renderNarratedSegments(
  options: MediaPipelineOptions,
  ctx: StageContext,
  input: {
    aspect: Aspect;
    size: { width: number; height: number };
    segments: ComposeSegment[];
    /** The narration WAV, relative to the media dir (as the voice stages store it). */
    narration: string;
    cues: Cue[];
    /** The music asked for (stored by the script stage); not a number: the work's default. */
    musicId: unknown;
    /** The music's gain under the narration; absent: compose's default. */
    musicVolume?: number;
    videoFilters?: string[];
    /** Base name of the outputs: `video`, or `merge` for a merge of cut segments. */
    name?: string;
    /** The segments (indexes) shown without a picture of their own: the report names them. */
    missingPictures?: number[];
  },
): Promise<FinishedVideoOutput> {
  const files = taskFiles(options, ctx);
  const name = input.name ?? 'video';
  const captions = {
    srtPath: path.join(ctx.workDir, `${name}-captions.srt`),
    assPath: path.join(ctx.workDir, `${name}-captions.ass`),
  };
  const captionStyle = await captionStyleOf(options, ctx);
  await writeCaptions(input.cues, captions, input.size, input.aspect, captionStyle);
  const musicPath = await resolveWorkMusic(options, ctx.task.userId, workIdOf(ctx), input.musicId);
  checkAborted(ctx.signal);
  const result = await composeSegments(
    {
      aspect: input.aspect,
      segments: input.segments,
      narrationWav: files.abs(input.narration),
      ...(musicPath ? { musicPath } : {}),
      ...captions,
      ...(input.videoFilters ? { videoFilters: input.videoFilters } : {}),
    },
    files.abs(files.rel()),
    {
      size: input.size,
      concurrency: partConcurrency(),
      name,
      ...(input.musicVolume !== undefined ? { musicVolume: input.musicVolume } : {}),
      onProgress: (done, total) => ctx.reportProgress((done / total) * 100),
    },
  );
  const timeline = timelineOf(
    {
      aspect: input.aspect,
      size: input.size,
      segments: input.segments,
      narration: input.narration,
      cues: input.cues,
      captionStyle,
      ...(musicPath
        ? { music: { path: musicPath, volume: input.musicVolume ?? MUSIC_VOLUME_DEFAULT } }
        : {}),
      ...(input.videoFilters ? { videoFilters: input.videoFilters } : {}),
    },
    options,
  );
  const outputs = await finishedVideoOutputs(options, ctx, result, {
    aspect: input.aspect,
    narration: input.narration,
    cues: input.cues,
    ...(input.missingPictures
      ? { segments: { missing: input.missingPictures, count: input.segments.length } }
      : {}),
  });
  // A file the render made for itself alone (not kept in the store) leaves no timeline:
  // the export then says so rather than that the video is old.
  return timeline ? { ...outputs, timeline } : { ...outputs, timelineUnkept: true };
}
