import { Type, type Static } from 'typebox';
import { ProjectType, overseasTextRefusal, type VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import { splitSentences } from '../../engine/captions';
import {
  DEFAULT_MATERIAL_ID,
  resolveMaterial,
  type ResolvedMaterial,
} from '../../library/materials';
import { findFlaggedTerms } from '../../library/vocabulary';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from '../../../providers/speech/espeak';
import { AspectSchema, FinishedVideoSchema, MusicIdSchema, SpokenNarrationSchema } from './outputs';
import { requireSpeakable, workIdOf, type MediaPipelineOptions } from './pipeline';
import { speakNarration } from './voice';

/** A text with terms a platform may flag is refused before anything is rendered. */
export function refuseFlagged(text: string, field = '文案'): void {
  const flagged = findFlaggedTerms(text);
  if (flagged.length === 0) return;
  const list = [...new Set(flagged.map((t) => `「${t.word}」（可改为「${t.replacement}」）`))];
  throw new UserInputError(`${field}中含有平台可能限流的词：${list.slice(0, 5).join('、')}`);
}

/** The background of a work, checked to exist and be the user's (a built-in is everyone's). */
export async function backgroundOf(
  options: MediaPipelineOptions,
  userId: number,
  materialId: number,
): Promise<ResolvedMaterial> {
  const material = await resolveMaterial(options, userId, materialId).catch((error: unknown) => {
    throw new StageError('内置背景素材生成失败，请稍后重试', { provider: 'ffmpeg', cause: error });
  });
  if (!material) throw new UserInputError('「背景素材」不存在或不属于你，请重新选择');
  if (material.lost) throw new StageError('「背景素材」文件已丢失，请更换素材后重新生成');
  return material;
}

/** What the `script` stage of the narrated types snapshots of the work. */
export const NarrationScriptSchema = Type.Object({
  text: Type.String(),
  sentences: Type.Array(Type.String()),
  aspect: AspectSchema,
  voiceId: Type.String(),
  speed: Type.Number(),
  materialId: Type.Number(),
  musicId: MusicIdSchema,
});

/** The video of a narrated type over a background, and which background it shows. */
export const BackgroundVideoSchema = Type.Object({
  ...FinishedVideoSchema.properties,
  materialId: Type.Number(),
});

/**
 * The first two stages of the narrated types over a background (decompression 1 and 6, scroll
 * 2): `script` snapshots the work (text, voice, background, music) so a resumed task renders
 * what was asked at start; `voice` speaks it sentence by sentence (exact caption times).
 * `check` refuses a script the type cannot render (scroll: too long a text), before the voice.
 */
export function narrationStages(
  options: MediaPipelineOptions,
  check?: (script: Static<typeof NarrationScriptSchema>) => void,
) {
  const works = options.repos.works;

  const script = defineStage({
    name: 'script',
    weight: 0.5,
    output: NarrationScriptSchema,
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      const text = requireSpeakable(work.text);
      refuseFlagged(text);
      const sentences = splitSentences(text);
      if (sentences.length === 0) throw new UserInputError('「文案」中没有可朗读的句子');
      const settings: VideoSettings = work.settings;
      const materialId = settings.backgroundMaterialId ?? DEFAULT_MATERIAL_ID;
      // Checked now, so a wrong choice fails before the voice is spoken.
      await backgroundOf(options, ctx.task.userId, materialId);
      const overseas = ctx.task.type === ProjectType.decompressionOverseas;
      // gen_video refuses it first; a task started another way still never speaks Chinese
      // with an English voice.
      const refusal = overseas ? overseasTextRefusal(text, options.providers.chat !== null) : null;
      if (refusal) throw new UserInputError(refusal);
      const out = {
        text,
        sentences,
        aspect: settings.aspect,
        voiceId: settings.voiceId ?? (overseas ? ENGLISH_VOICE_ID : DEFAULT_VOICE_ID),
        speed: settings.speed ?? 1,
        materialId,
        musicId: settings.musicId ?? null,
      };
      check?.(out);
      ctx.reportProgress(100);
      return out;
    },
  });

  const voice = defineStage({
    name: 'voice',
    weight: 3,
    output: SpokenNarrationSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      return speakNarration(options, ctx, spec.sentences, spec);
    },
  });

  return { script, voice };
}
