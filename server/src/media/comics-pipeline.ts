import path from 'node:path';
import { ProjectType, type VideoSettings } from '@kol/shared-sdk/contracts';
import { createWorksRepository } from '../repositories/works';
import { StageError, UserInputError } from '../tasks/errors';
import type { StageContext, StageHandler } from '../tasks/types';
import { splitSentences, writeCaptions, type Aspect, type Cue } from './captions';
import { defaultSize } from './compose';
import { composeVideo } from './compose-segments';
import { drawWorkShots } from './images/shots';
import { chooseMusic, resolveWorkMusic } from './work-inputs';
import { translateToEnglish } from './script/translate';
import {
  captionStyleOf,
  checkAborted,
  requireSpeakable,
  num,
  outputOf,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
  partConcurrency,
} from './pipeline-kit';
import { finishedVideoOutputs } from './quality-report';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from './speech/espeak';
import { speakSentences } from './speech/index';

export { cleanScript, mediaUrl, type MediaPipelineOptions } from './pipeline-kit';

/** A shot of the comics pipeline as the `shots` stage stores it. */
export interface PipelineShot {
  index: number;
  caption: string;
  imagePrompt: string;
  sentences: string[];
}

const hasCjk = (text: string) => /[\u3400-\u9fff]/.test(text);

/** Sentences per shot: more makes a picture stay too long, one per shot flickers. */
const MAX_SENTENCES_PER_SHOT = 3;
/** A shot also ends before its caption grows past this many characters. */
const MAX_SHOT_CHARS = 60;

/** Groups sentences into shots of 1 to 3 sentences, keeping each shot's caption short. */
export function groupShots(sentences: string[]): PipelineShot[] {
  const groups: string[][] = [];
  let current: string[] = [];
  for (const sentence of sentences) {
    const chars = current.join('').length + sentence.length;
    if (
      current.length > 0 &&
      (current.length >= MAX_SENTENCES_PER_SHOT || chars > MAX_SHOT_CHARS)
    ) {
      groups.push(current);
      current = [];
    }
    current.push(sentence);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((group, index) => {
    const caption = group.join('');
    return { index, caption, imagePrompt: caption, sentences: group };
  });
}

/**
 * The shots the creator made on the caption page (update_text), in their order: each caption
 * spoken as its own sentences, each picture drawn from its prompt (the caption when empty).
 * A shot with nothing speakable is left out.
 */
export function editorShots(saved: ReadonlyArray<{ caption: string; imagePrompt: string }>) {
  return saved
    .map((shot) => ({ shot, sentences: splitSentences(shot.caption) }))
    .filter(({ sentences }) => sentences.length > 0)
    .map(({ shot, sentences }, index) => ({
      index,
      caption: sentences.join(''),
      imagePrompt: shot.imagePrompt.trim() || sentences.join(''),
      sentences,
    }));
}

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
  const works = createWorksRepository(options.db);
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
        if (!options.chatModel) {
          throw new UserInputError(
            '海外漫剪需要英文文案：离线模式无法翻译，请填写英文文案，或配置文本模型（LLM_BASE_URL）后自动翻译',
          );
        }
        text = await translateToEnglish(options.chatModel, text, ctx.signal).catch(
          (error: unknown) => {
            throw new StageError(error instanceof Error ? error.message : '翻译失败', {
              provider: options.chatModel?.label ?? '文本模型',
              cause: error,
            });
          },
        );
        translatedBy = options.chatModel.label;
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
      const spoken = await speakSentences(sentences, abs(relative), {
        voiceId: str(settings.voiceId),
        speed: num(settings.speed, 1),
        tts: options.tts ?? null,
        signal: ctx.signal,
      }).catch((error: unknown) => {
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
