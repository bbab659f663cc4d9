import path from 'node:path';
import { defineStage } from '../../../tasks/stage';
import { writeCaptions, type Aspect, type Cue } from '../../engine/captions';
import { composeVideo } from '../../engine/compose-segments';
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
      await writeCaptions(cues, captions, size, aspect, await captionStyleOf(options, ctx));
      const musicPath = await resolveWorkMusic(
        options,
        ctx.task.userId,
        workIdOf(ctx),
        script.musicId,
      );
      checkAborted(ctx.signal);
      const result = await composeVideo(
        {
          aspect,
          shots: frames.map((frame, i) => ({
            imagePath: abs(frame),
            durationMs: durations[i] ?? 0,
          })),
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
      return finishedVideoOutputs(options, ctx, result, {
        aspect,
        narration: spoken.narration,
        cues,
      });
    },
  });
}
