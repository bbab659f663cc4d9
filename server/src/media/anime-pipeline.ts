import type { VideoSettings } from '@kol/shared-sdk/contracts';
import { createWorksRepository } from '../repositories/works';
import { StageError, UserInputError } from '../tasks/errors';
import type { StageContext, StageHandler } from '../tasks/types';
import {
  modelScript,
  modelStoryboard,
  NARRATOR,
  parseScript,
  scriptFromStory,
  storyboardFromScript,
  type ScriptLine,
  type StoryboardShot,
} from './anime/script';
import { splitSentences } from './captions';
import { stillsComposeStage } from './comics-pipeline';
import { drawWorkShots } from './images/shots';
import {
  num,
  outputOf,
  requireSpeakable,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline-kit';
import { assignVoices, speakDialogue, type SpeakerVoice } from './speech/dialogue';
import { findVoice } from './speech/index';
import { chooseMusic } from './work-inputs';
import type { Aspect } from './captions';

/** A storyboard shot as the stages store it: the line cut into sentences for the captions. */
interface AnimeShot extends StoryboardShot {
  caption: string;
  sentences: string[];
}

/** Local engine label of an adaptation the model did not write (offline, or it failed). */
const LOCAL_SCRIPT = '本地改编（离线规则）';

/**
 * The anime short (type 11): an idea or a story becomes a script with speakers, a storyboard
 * with a camera and a scene per line, a picture per shot (the roles drawn the same way in
 * every shot), each line in its speaker's voice, composed like the comic clip.
 */
export function animePipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = createWorksRepository(options.db);
  const shotsOf = (ctx: StageContext) => {
    const shots = outputOf(ctx, 'shots').shots;
    if (!Array.isArray(shots) || shots.length === 0) throw new StageError('分镜为空，请重新生成');
    return shots as AnimeShot[];
  };

  const script: StageHandler = {
    name: 'script',
    label: '剧本',
    weight: 1,
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      const text = requireSpeakable(work.text);
      const settings: VideoSettings = work.settings;
      // A text already in 「角色：台词」 form (the caption page's) is the script as written.
      let lines = parseScript(text);
      let engine = '用户剧本';
      let note: string | null = null;
      if (!lines && options.chatModel) {
        try {
          lines = await modelScript(options.chatModel, text, ctx.signal);
          engine = options.chatModel.label;
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          note = `${error instanceof Error ? error.message : '模型改编失败'}，已改用本地改编`;
        }
      }
      if (!lines) {
        lines = scriptFromStory(text);
        engine = LOCAL_SCRIPT;
      }
      lines = lines.filter((line) => /[\p{L}\p{N}]/u.test(line.text));
      if (lines.length === 0) throw new UserInputError('「剧本」中没有可朗读的台词');
      const speakers = [...new Set(lines.map((line) => line.speaker))];
      const chosen = { ...(settings.roleVoices ?? {}) };
      // The narrator speaks with the work's voice when one is chosen.
      if (settings.voiceId && !chosen[NARRATOR]) chosen[NARRATOR] = settings.voiceId;
      const voices = assignVoices(
        speakers,
        chosen,
        (voiceId) => findVoice(options.tts, voiceId) !== null,
      );
      ctx.reportProgress(100);
      return {
        lines,
        engine,
        ...(note ? { note } : {}),
        voices,
        aspect: settings.aspect,
        speed: settings.speed ?? 1,
        musicId: await chooseMusic(options, ctx.task.userId, workIdOf(ctx), settings.musicId),
      };
    },
  };

  const shots: StageHandler = {
    name: 'shots',
    label: '分镜',
    weight: 1,
    async run(ctx) {
      const lines = outputOf(ctx, 'script').lines as ScriptLine[];
      let board: StoryboardShot[] | null = null;
      let engine = LOCAL_SCRIPT;
      if (options.chatModel) {
        board = await modelStoryboard(options.chatModel, lines, ctx.signal).catch(
          (error: unknown) => {
            if (ctx.signal.aborted) throw error;
            return null;
          },
        );
        if (board) engine = options.chatModel.label;
      }
      board ??= storyboardFromScript(lines);
      const list: AnimeShot[] = board.map((shot) => ({
        ...shot,
        caption: shot.speaker === NARRATOR ? shot.line : `${shot.speaker}：${shot.line}`,
        sentences: splitSentences(shot.line),
      }));
      ctx.reportProgress(100);
      return { shots: list, engine };
    },
  };

  const images: StageHandler = {
    name: 'images',
    weight: 2,
    async run(ctx) {
      const aspect = str(outputOf(ctx, 'script').aspect, '9:16') as Aspect;
      return drawWorkShots(options, ctx, shotsOf(ctx), aspect);
    },
  };

  const voice: StageHandler = {
    name: 'voice',
    weight: 3,
    async run(ctx) {
      const spec = outputOf(ctx, 'script');
      const list = shotsOf(ctx);
      const { rel, abs } = taskFiles(options, ctx);
      const order = list.flatMap((shot) =>
        shot.sentences.map((text) => ({ speaker: shot.speaker, text })),
      );
      const relative = rel('narration.wav');
      const spoken = await speakDialogue(
        order,
        spec.voices as Record<string, SpeakerVoice>,
        abs(relative),
        {
          speed: num(spec.speed, 1),
          signal: ctx.signal,
          tts: options.tts ?? null,
          caption: (line) =>
            line.speaker === NARRATOR ? line.text : `${line.speaker}：${line.text}`,
          onProgress: (percent) => ctx.reportProgress(percent * 0.95),
        },
      );
      // Each shot lasts from its first sentence's start to the next shot's (pauses included).
      let at = 0;
      const starts: number[] = [];
      for (const shot of list) {
        starts.push(at === 0 ? 0 : (spoken.segments[at]?.startMs ?? 0));
        at += shot.sentences.length;
      }
      ctx.reportProgress(100);
      return {
        narration: relative,
        durationMs: spoken.durationMs,
        cues: spoken.segments,
        speakers: order.map((line) => line.speaker),
        shotDurations: starts.map((start, i) => (starts[i + 1] ?? spoken.durationMs) - start),
      };
    },
  };

  return [script, shots, images, voice, stillsComposeStage(options)];
}
