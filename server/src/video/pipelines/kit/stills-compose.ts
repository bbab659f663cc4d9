import path from 'node:path';
import { MUSIC_VOLUME_DEFAULT } from '@kol/shared-sdk/contracts';
import { defineStage } from '../../../tasks/stage';
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
  outputSize,
} from './pipeline';
import { FinishedVideoSchema, type StageRef } from './outputs';
import { finishedVideoOutputs } from './quality-report';
import { resolveWorkMusic } from './work-inputs';
import type { ShotClipsOutput } from './clips';

/**
 * The final stage of the pipelines made of still pictures (comics, overseas, anime): each
 * picture of the `images` stage held for its shot's duration from the `voice` stage
 * (`shotDurations`, `cues`, `narration`), the captions burned in, the music of the `script`
 * stage's `musicId` (or the work's default track) ducked under the voice.
 */
export function stillsComposeStage(
  options: MediaPipelineOptions,
  from: {
    script: StageRef<{ aspect: Aspect; musicId: number | null }>;
    images: StageRef<{ images: string[] }>;
    voice: StageRef<{ narration: string; cues: Cue[]; shotDurations: number[] }>;
    /** The shots' clips (kit/clips.ts): a shot with one shows it instead of its still. */
    clips?: StageRef<ShotClipsOutput>;
  },
) {
  return defineStage({
    name: 'compose',
    weight: 6,
    output: FinishedVideoSchema,
    async run(ctx) {
      const { rel: taskRel, abs } = taskFiles(options, ctx);
      const script = from.script.output(ctx);
      const aspect = script.aspect;
      const frames = from.images.output(ctx).images;
      const spoken = from.voice.output(ctx);
      const durations = spoken.shotDurations;
      const cues = spoken.cues;
      const size = outputSize(options, aspect);
      const captions = {
        srtPath: path.join(ctx.workDir, 'captions.srt'),
        assPath: path.join(ctx.workDir, 'captions.ass'),
      };
      const captionStyle = await captionStyleOf(options, ctx);
      await writeCaptions(cues, captions, size, aspect, captionStyle);
      const musicPath = await resolveWorkMusic(
        options,
        ctx.task.userId,
        workIdOf(ctx),
        script.musicId,
      );
      checkAborted(ctx.signal);
      // A clip older stores lack (tasks made before the stage) reads as none.
      const clips = from.clips && ctx.outputs.clips ? from.clips.output(ctx).clips : [];
      const segments: ComposeSegment[] = frames.map((frame, i) => {
        const clip = clips[i]?.clip;
        return {
          // A clip shorter than its shot holds its last frame; a longer one is cut.
          media: clip ? { kind: 'video', path: abs(clip) } : { kind: 'image', path: abs(frame) },
          durationMs: durations[i] ?? 0,
        };
      });
      const result = await composeSegments(
        {
          aspect,
          segments,
          narrationWav: abs(spoken.narration),
          ...(musicPath ? { musicPath } : {}),
          ...captions,
        },
        abs(taskRel()),
        {
          size,
          concurrency: partConcurrency(),
          name: 'video',
          onProgress: (done, total) => ctx.reportProgress((done / total) * 100),
        },
      );
      const outputs = await finishedVideoOutputs(options, ctx, result, {
        aspect,
        narration: spoken.narration,
        cues,
      });
      const timeline = timelineOf(
        {
          aspect,
          size,
          segments,
          narration: spoken.narration,
          cues,
          captionStyle,
          ...(musicPath ? { music: { path: musicPath, volume: MUSIC_VOLUME_DEFAULT } } : {}),
        },
        options,
      );
      // A file the render made for itself alone (not kept in the store) leaves no timeline:
      // the export then says so rather than that the video is old.
      return timeline ? { ...outputs, timeline } : { ...outputs, timelineUnkept: true };
    },
  });
}
