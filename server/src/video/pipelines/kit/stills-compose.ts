import path from 'node:path';
import type { StageHandler } from '../../../tasks/types';
import { writeCaptions, type Aspect, type Cue } from '../../engine/captions';
import { defaultSize } from '../../engine/compose';
import { composeVideo } from '../../engine/compose-segments';
import {
  captionStyleOf,
  checkAborted,
  outputOf,
  partConcurrency,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline';
import { finishedVideoOutputs } from './quality-report';
import { resolveWorkMusic } from './work-inputs';

/**
 * The final stage of the pipelines made of still pictures (comics, overseas, anime): each
 * picture of the `images` stage held for its shot's duration from the `voice` stage
 * (`shotDurations`, `cues`, `narration`), the captions burned in, the music of the `script`
 * stage's `musicId` (or the work's default track) ducked under the voice.
 */
export function stillsComposeStage(options: MediaPipelineOptions): StageHandler {
  return {
    name: 'compose',
    weight: 6,
    async run(ctx) {
      const { rel: taskRel, abs } = taskFiles(options, ctx);
      const script = outputOf(ctx, 'script');
      const aspect = str(script.aspect, '9:16') as Aspect;
      const frames = outputOf(ctx, 'images').images as string[];
      const spoken = outputOf(ctx, 'voice');
      const durations = spoken.shotDurations as number[];
      const cues = spoken.cues as Cue[];
      const size = options.renderSize ?? defaultSize(aspect);
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
          narrationWav: abs(str(spoken.narration)),
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
        narration: str(spoken.narration),
        cues,
      });
    },
  };
}
