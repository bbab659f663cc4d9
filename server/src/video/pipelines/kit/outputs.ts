import { Type, type Static } from 'typebox';
import { QualityReport } from '@kol/shared-sdk/contracts';
import type { StageContext } from '../../../tasks/types';
import { TimelineSchema } from '../../export/timeline';

/**
 * The output schemas several pipelines share (tasks/stage.ts: defineStage). They describe what
 * the stages store today, loosely (no lengths or ranges), so a stored task still fits them when
 * it resumes; a stage of one pipeline only keeps its own schema in its own file.
 */

/** A stage output a later stage reads: a DefinedStage, or anything with the same `output`. */
export interface StageRef<T> {
  output(ctx: Pick<StageContext, 'outputs'>): T;
}

export const AspectSchema = Type.Union([Type.Literal('9:16'), Type.Literal('16:9')]);

export const CueSchema = Type.Object({
  text: Type.String(),
  startMs: Type.Number(),
  endMs: Type.Number(),
});

/** The music a script stage snapshots: an id (0 none), or null for the work's default track. */
export const MusicIdSchema = Type.Union([Type.Number(), Type.Null()]);

/** A speaker's voice (kit/dialogue.ts SpeakerVoice), by speaker name. */
export const SpeakerVoicesSchema = Type.Record(
  Type.String(),
  Type.Object({ voiceId: Type.String(), speedFactor: Type.Number() }),
);

/** The narration every `voice` stage of a video stores: the WAV, its length and caption times. */
export const NarrationSchema = Type.Object({
  /** The narration WAV, relative to the media dir. */
  narration: Type.String(),
  durationMs: Type.Number(),
  cues: Type.Array(CueSchema),
});

/** A narration spoken by one voice (speakNarration in voice.ts): also the engine that spoke. */
export const SpokenNarrationSchema = Type.Object({
  ...NarrationSchema.properties,
  engine: Type.String(),
  /** Set when the asked voice could not speak and an offline one did (Chinese). */
  note: Type.Optional(Type.String()),
});
export type SpokenNarrationOutput = Static<typeof SpokenNarrationSchema>;

/** The narration of a pipeline of pictures (comics, market): also how long each shot shows. */
export const PicturedNarrationSchema = Type.Object({
  ...SpokenNarrationSchema.properties,
  shotDurations: Type.Array(Type.Number()),
});

/** A shot of the pictured pipelines (kit/storyboard.ts PipelineShot). */
export const PipelineShotSchema = Type.Object({
  index: Type.Number(),
  caption: Type.String(),
  imagePrompt: Type.String(),
  sentences: Type.Array(Type.String()),
});

/** The images stage of a work's pictures (kit/shots.ts drawWorkShots). */
export const ShotImagesSchema = Type.Object({
  /** One picture per shot, relative to the media dir. */
  images: Type.Array(Type.String()),
  shotImages: Type.Array(
    Type.Object({
      index: Type.Number(),
      image: Type.String(),
      engine: Type.String(),
      needsRegeneration: Type.Boolean(),
      error: Type.Union([Type.String(), Type.Null()]),
      /** The picture on the work's shot was kept (not drawn again): its clip may be kept too. */
      kept: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type ShotImagesOutput = Static<typeof ShotImagesSchema>;

/** What every compose stage ends with (kit/quality-report.ts finishedVideoOutputs). */
export const FinishedVideoSchema = Type.Object({
  video: Type.String(),
  srt: Type.String(),
  cover: Type.String(),
  videoDurationMs: Type.Number(),
  videoUrl: Type.String(),
  srtUrl: Type.String(),
  coverUrl: Type.String(),
  report: QualityReport,
  /** What the render used, for the editors' exports; absent from videos made before them. */
  timeline: Type.Optional(TimelineSchema),
  /** The render used a file it did not keep: no timeline could be recorded (no export). */
  timelineUnkept: Type.Optional(Type.Boolean()),
});
export type FinishedVideoOutput = Static<typeof FinishedVideoSchema>;
