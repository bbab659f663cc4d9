import type { StageHandler } from '../../../tasks/types';
import { type Aspect, type Cue } from '../../engine/captions';
import { defaultSize } from '../../engine/compose';
import { num, outputOf, str, workIdOf, type MediaPipelineOptions } from '../kit/pipeline';
import { backgroundOf, narrationStages } from '../kit/narration';
import { renderNarratedSegments } from '../kit/render-narrated';
import { resolveWorkMusic } from '../kit/work-inputs';

/**
 * Decompression (1, overseas 6): the work's text spoken over a looping background material,
 * captions sentence by sentence, music ducked under the voice.
 */
export function decompressionPipeline(options: MediaPipelineOptions): StageHandler[] {
  const compose: StageHandler = {
    name: 'compose',
    weight: 4,
    async run(ctx) {
      const spec = outputOf(ctx, 'script');
      const spoken = outputOf(ctx, 'voice');
      const aspect = str(spec.aspect, '9:16') as Aspect;
      const size = options.renderSize ?? defaultSize(aspect);
      const background = await backgroundOf(options, ctx.task.userId, num(spec.materialId, 0));
      const musicPath = await resolveWorkMusic(
        options,
        ctx.task.userId,
        workIdOf(ctx),
        spec.musicId,
      );
      const outputs = await renderNarratedSegments(options, ctx, {
        aspect,
        size,
        // One segment: the loop plays on across the whole narration, never restarting.
        segments: [
          {
            media: { kind: 'video', path: background.path, loop: true },
            durationMs: num(spoken.durationMs, 0),
          },
        ],
        narration: str(spoken.narration),
        cues: spoken.cues as Cue[],
        musicPath,
      });
      return { ...outputs, materialId: background.materialId };
    },
  };

  return [...narrationStages(options), compose];
}
