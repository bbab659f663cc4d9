import { defineStage } from '../../../tasks/stage';
import type { StageHandler } from '../../../tasks/types';
import { type MediaPipelineOptions, outputSize } from '../kit/pipeline';
import { BackgroundVideoSchema, backgroundOf, narrationStages } from '../kit/narration';
import { renderNarratedSegments } from '../kit/render-narrated';

/**
 * Decompression (1, overseas 6): the work's text spoken over a looping background material,
 * captions sentence by sentence, music ducked under the voice.
 */
export function decompressionPipeline(options: MediaPipelineOptions): StageHandler[] {
  const { script, voice } = narrationStages(options);

  const compose = defineStage({
    name: 'compose',
    weight: 4,
    output: BackgroundVideoSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      const spoken = voice.output(ctx);
      const aspect = spec.aspect;
      const size = outputSize(options, aspect);
      const background = await backgroundOf(options, ctx.task.userId, spec.materialId);
      const outputs = await renderNarratedSegments(options, ctx, {
        aspect,
        size,
        // One segment: the loop plays on across the whole narration, never restarting.
        segments: [
          {
            media: { kind: 'video', path: background.path, loop: true },
            durationMs: spoken.durationMs,
          },
        ],
        narration: spoken.narration,
        cues: spoken.cues,
        musicId: spec.musicId,
      });
      return { ...outputs, materialId: background.materialId };
    },
  });

  return [script, voice, compose];
}
