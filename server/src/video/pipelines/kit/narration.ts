import path from 'node:path';
import { ProjectType, type VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import type { StageHandler } from '../../../tasks/types';
import { splitSentences } from '../../engine/captions';
import {
  DEFAULT_MATERIAL_ID,
  resolveMaterial,
  type ResolvedMaterial,
} from '../../library/materials';
import { findFlaggedTerms } from '../../library/vocabulary';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from '../../../providers/speech/espeak';
import {
  num,
  outputOf,
  requireSpeakable,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline';

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
  return material;
}

/**
 * The first two stages of the narrated types over a background (decompression 1 and 6, scroll
 * 2): `script` snapshots the work (text, voice, background, music) so a resumed task renders
 * what was asked at start; `voice` speaks it sentence by sentence (exact caption times).
 */
export function narrationStages(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;

  const script: StageHandler = {
    name: 'script',
    weight: 0.5,
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
      ctx.reportProgress(100);
      return {
        text,
        sentences,
        aspect: settings.aspect,
        voiceId: settings.voiceId ?? (overseas ? ENGLISH_VOICE_ID : DEFAULT_VOICE_ID),
        speed: settings.speed ?? 1,
        materialId,
        musicId: settings.musicId ?? null,
      };
    },
  };

  const voice: StageHandler = {
    name: 'voice',
    weight: 3,
    async run(ctx) {
      const spec = outputOf(ctx, 'script');
      const relative = taskFiles(options, ctx).rel('narration.wav');
      ctx.reportProgress(5);
      const spoken = await options.providers.speech
        .speak(spec.sentences as string[], path.join(options.mediaDir, relative), {
          voiceId: str(spec.voiceId),
          speed: num(spec.speed, 1),
          signal: ctx.signal,
        })
        .catch((error: unknown) => {
          throw new StageError('语音合成失败，请稍后重试', { provider: 'espeak-ng', cause: error });
        });
      ctx.reportProgress(100);
      return {
        narration: relative,
        durationMs: spoken.durationMs,
        cues: spoken.segments.map((s) => ({ text: s.text, startMs: s.startMs, endMs: s.endMs })),
        engine: spoken.engine,
        ...(spoken.note ? { note: spoken.note } : {}),
      };
    },
  };

  return [script, voice];
}
