import { Type } from 'typebox';
import { ProjectType, type VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageHandler } from '../../../tasks/types';
import { splitSentences } from '../../engine/captions';
import { drawWorkShots } from '../kit/shots';
import { stillsComposeStage } from '../kit/stills-compose';
import { clipsStage, wantsMotion } from '../kit/clips';
import { editorShots, groupShots, shotsOf } from '../kit/storyboard';
import { chooseMusic } from '../kit/work-inputs';
import { translateToEnglish } from '../kit/translate';
import { requireSpeakable, workIdOf, type MediaPipelineOptions } from '../kit/pipeline';
import { AspectSchema, PipelineShotSchema, ShotImagesSchema } from '../kit/outputs';
import { picturedVoiceStage } from '../kit/voice';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from '../../../providers/speech/espeak';

export { cleanScript, mediaUrl, type MediaPipelineOptions } from '../kit/pipeline';

const hasCjk = (text: string) => /[\u3400-\u9fff]/.test(text);

/**
 * The comic-clip pipeline (type 0; anime short 11 reuses it until it has its own storyboard
 * stages). Every file goes under `<mediaDir>/<userId>/<taskId>/` and every stored path is
 * relative to the media dir, so the data directory can move without breaking finished tasks.
 */
export function comicsPipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;

  const script = defineStage({
    name: 'script',
    weight: 0.5,
    output: Type.Object({
      text: Type.String(),
      savedShots: Type.Array(Type.Object({ caption: Type.String(), imagePrompt: Type.String() })),
      aspect: AspectSchema,
      voiceId: Type.String(),
      speed: Type.Number(),
      musicId: Type.Number(),
      translatedBy: Type.Optional(Type.String()),
      /** The shots move (kit/clips.ts); absent in tasks made before motion: stills. */
      motion: Type.Optional(Type.Boolean()),
    }),
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      let text = requireSpeakable(work.text);
      const settings: VideoSettings = work.settings;
      const overseas = ctx.task.type === ProjectType.comicsOverseas;
      let translatedBy: string | null = null;
      if (overseas && hasCjk(text)) {
        // Overseas videos speak and caption English: a Chinese text is translated by the
        // configured model; offline there is no translator, and the user is told so.
        if (!options.providers.chat) {
          throw new UserInputError(
            '海外漫剪需要英文文案：离线模式无法翻译，请填写英文文案，或配置文本模型（LLM_BASE_URL）后自动翻译',
          );
        }
        text = await translateToEnglish(options.providers.chat, text, ctx.signal).catch(
          (error: unknown) => {
            throw new StageError(error instanceof Error ? error.message : '翻译失败', {
              provider: options.providers.chat?.label ?? '文本模型',
              cause: error,
            });
          },
        );
        translatedBy = options.providers.chat.label;
      }
      // The shots the creator edited are the video's shots (a translated text has its own).
      const savedShots = translatedBy
        ? []
        : work.shots.map((shot) => ({ caption: shot.caption, imagePrompt: shot.imagePrompt }));
      ctx.reportProgress(100);
      // The settings are snapshotted here so a resumed task renders what was asked at start.
      return {
        text,
        savedShots,
        aspect: settings.aspect,
        voiceId: settings.voiceId ?? (overseas ? ENGLISH_VOICE_ID : DEFAULT_VOICE_ID),
        speed: settings.speed ?? 1,
        musicId: await chooseMusic(options, ctx.task.userId, workIdOf(ctx), settings.musicId),
        ...(translatedBy ? { translatedBy } : {}),
        // The comic clip moves only when the creator chose it on the configuration page.
        motion: wantsMotion(options.providers.videos, settings.motion, false),
      };
    },
  });

  const shots = defineStage({
    name: 'shots',
    weight: 0.5,
    output: Type.Object({ shots: Type.Array(PipelineShotSchema) }),
    async run(ctx) {
      const spec = script.output(ctx);
      const saved = editorShots(spec.savedShots);
      const list = saved.length > 0 ? saved : groupShots(splitSentences(spec.text));
      if (list.length === 0) throw new UserInputError('「文案」中没有可朗读的句子');
      ctx.reportProgress(100);
      return { shots: list };
    },
  });

  const images = defineStage({
    name: 'images',
    weight: 2,
    output: ShotImagesSchema,
    async run(ctx) {
      // The provider with the work's roles and style, the local frame where it fails.
      return drawWorkShots(options, ctx, shotsOf(shots, ctx), script.output(ctx).aspect);
    },
  });

  // A voice that cannot speak here (provider failing or not configured): an offline one does, with a note.
  const voice = picturedVoiceStage(options, { script, shots });

  const clips = clipsStage(options, { script, shots: (ctx) => shotsOf(shots, ctx), images, voice });

  // Without a video service there is no motion to make: offline, the stages stay as they were.
  return options.providers.videos
    ? [
        script,
        shots,
        images,
        voice,
        clips,
        stillsComposeStage(options, { script, images, voice, clips }),
      ]
    : [script, shots, images, voice, stillsComposeStage(options, { script, images, voice })];
}
