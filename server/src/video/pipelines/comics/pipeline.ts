import path from 'node:path';
import { ProjectType, type VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { splitSentences, type Aspect } from '../../engine/captions';
import { drawWorkShots } from '../kit/shots';
import { stillsComposeStage } from '../kit/stills-compose';
import { editorShots, groupShots, type PipelineShot } from '../kit/storyboard';
import { chooseMusic } from '../kit/work-inputs';
import { translateToEnglish } from '../kit/translate';
import {
  requireSpeakable,
  num,
  outputOf,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from '../kit/pipeline';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from '../../../providers/speech/espeak';

export { cleanScript, mediaUrl, type MediaPipelineOptions } from '../kit/pipeline';

const hasCjk = (text: string) => /[\u3400-\u9fff]/.test(text);

function shotsOf(ctx: StageContext): PipelineShot[] {
  const shots = outputOf(ctx, 'shots').shots;
  if (!Array.isArray(shots) || shots.length === 0) throw new StageError('分镜结果为空，请重新生成');
  return shots as PipelineShot[];
}

/**
 * The comic-clip pipeline (type 0; anime short 11 reuses it until it has its own storyboard
 * stages). Every file goes under `<mediaDir>/<userId>/<taskId>/` and every stored path is
 * relative to the media dir, so the data directory can move without breaking finished tasks.
 */
export function comicsPipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const taskRel = (ctx: StageContext, ...parts: string[]) => taskFiles(options, ctx).rel(...parts);
  const abs = (relative: string) => path.join(options.mediaDir, relative);

  const script: StageHandler = {
    name: 'script',
    weight: 0.5,
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
      };
    },
  };

  const shots: StageHandler = {
    name: 'shots',
    weight: 0.5,
    async run(ctx) {
      const script = outputOf(ctx, 'script');
      const saved = Array.isArray(script.savedShots)
        ? editorShots(script.savedShots as Array<{ caption: string; imagePrompt: string }>)
        : [];
      const list = saved.length > 0 ? saved : groupShots(splitSentences(str(script.text)));
      if (list.length === 0) throw new UserInputError('「文案」中没有可朗读的句子');
      ctx.reportProgress(100);
      return { shots: list };
    },
  };

  const images: StageHandler = {
    name: 'images',
    weight: 2,
    async run(ctx) {
      const aspect = str(outputOf(ctx, 'script').aspect, '9:16') as Aspect;
      // The provider with the work's roles and style, the local frame where it fails.
      return drawWorkShots(options, ctx, shotsOf(ctx), aspect);
    },
  };

  const voice: StageHandler = {
    name: 'voice',
    weight: 3,
    async run(ctx) {
      const settings = outputOf(ctx, 'script');
      const list = shotsOf(ctx);
      const sentences = list.flatMap((shot) => shot.sentences);
      const relative = taskRel(ctx, 'narration.wav');
      ctx.reportProgress(5);
      // A voice that cannot speak here (provider failing or not configured): an offline one does, with a note.
      const spoken = await options.providers.speech
        .speak(sentences, abs(relative), {
          voiceId: str(settings.voiceId),
          speed: num(settings.speed, 1),
          signal: ctx.signal,
        })
        .catch((error: unknown) => {
          throw new StageError('语音合成失败，请稍后重试', {
            provider: 'espeak-ng',
            cause: error,
          });
        });
      // Each shot lasts from its first sentence's start to the next shot's (pauses included).
      let at = 0;
      const starts: number[] = [];
      for (const shot of list) {
        starts.push(spoken.segments[at]?.startMs ?? 0);
        at += shot.sentences.length;
      }
      const shotDurations = starts.map((start, i) => (starts[i + 1] ?? spoken.durationMs) - start);
      ctx.reportProgress(100);
      return {
        narration: relative,
        durationMs: spoken.durationMs,
        cues: spoken.segments.map((s) => ({ text: s.text, startMs: s.startMs, endMs: s.endMs })),
        engine: spoken.engine,
        ...(spoken.note ? { note: spoken.note } : {}),
        shotDurations,
      };
    },
  };

  return [script, shots, images, voice, stillsComposeStage(options)];
}
