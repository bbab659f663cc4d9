import { StageError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext } from '../../../tasks/types';
import type { SpokenNarration } from '../../../providers/speech';
import { PicturedNarrationSchema, type SpokenNarrationOutput, type StageRef } from './outputs';
import { taskFiles, type MediaPipelineOptions } from './pipeline';
import { shotsOf } from './storyboard';

/**
 * Sentences spoken into `file` by the configured speech (a provider voice that cannot speak
 * falls back to an offline one, with a note). A failure is the service's, told in Chinese with
 * the shot when there is one; `message` replaces the usual sentence.
 */
export async function speakOrFail(
  options: MediaPipelineOptions,
  ctx: Pick<StageContext, 'signal'>,
  sentences: string[],
  file: string,
  voice: { voiceId: string; speed: number },
  failure: { message?: string; shot?: number } = {},
): Promise<SpokenNarration> {
  return options.providers.speech
    .speak(sentences, file, { voiceId: voice.voiceId, speed: voice.speed, signal: ctx.signal })
    .catch((error: unknown) => {
      // Aborted: the runner records why (cancel, shutdown), this error is not shown.
      if (ctx.signal.aborted) throw error;
      throw new StageError(failure.message ?? '语音合成失败，请稍后重试', {
        ...(failure.shot !== undefined ? { shot: failure.shot } : {}),
        provider: 'espeak-ng',
        cause: error,
      });
    });
}

/**
 * The narration of a `voice` stage spoken by one voice into the task's `narration.wav`: the
 * output every such stage stores (SpokenNarrationSchema), its cues being the sentences' times.
 */
export async function speakNarration(
  options: MediaPipelineOptions,
  ctx: StageContext,
  sentences: string[],
  voice: { voiceId: string; speed: number },
): Promise<SpokenNarrationOutput> {
  const files = taskFiles(options, ctx);
  const relative = files.rel('narration.wav');
  ctx.reportProgress(5);
  const spoken = await speakOrFail(options, ctx, sentences, files.abs(relative), voice);
  ctx.reportProgress(100);
  return {
    narration: relative,
    durationMs: spoken.durationMs,
    cues: spoken.segments.map((s) => ({ text: s.text, startMs: s.startMs, endMs: s.endMs })),
    engine: spoken.engine,
    ...(spoken.note ? { note: spoken.note } : {}),
  };
}

/**
 * How long each shot's picture shows: from its first sentence's start to the next shot's
 * (pauses included), the last to the end of the narration. `cues` are one per sentence.
 */
export function shotDurations(
  shots: ReadonlyArray<{ sentences: readonly string[] }>,
  spoken: { cues: ReadonlyArray<{ startMs: number }>; durationMs: number },
): number[] {
  let at = 0;
  const starts: number[] = [];
  for (const shot of shots) {
    starts.push(spoken.cues[at]?.startMs ?? 0);
    at += shot.sentences.length;
  }
  return starts.map((start, i) => (starts[i + 1] ?? spoken.durationMs) - start);
}

/**
 * The `voice` stage of a pipeline of pictures (comics, market): every shot's sentences spoken
 * by the script's voice, and how long each shot's picture shows (a market's end card comes up
 * exactly when its call to action starts).
 */
export function picturedVoiceStage(
  options: MediaPipelineOptions,
  from: {
    script: StageRef<{ voiceId: string; speed: number }>;
    shots: StageRef<{ shots: Array<{ sentences: string[] }> }>;
  },
) {
  return defineStage({
    name: 'voice',
    weight: 3,
    output: PicturedNarrationSchema,
    async run(ctx) {
      const list = shotsOf(from.shots, ctx);
      const sentences = list.flatMap((shot) => shot.sentences);
      const spoken = await speakNarration(options, ctx, sentences, from.script.output(ctx));
      return { ...spoken, shotDurations: shotDurations(list, spoken) };
    },
  });
}
