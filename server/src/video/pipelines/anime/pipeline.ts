import { Type, type Static } from 'typebox';
import { animeChosenVoices, type VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { Shot } from '@kol/shared-sdk/contracts';
import {
  adaptScript,
  captionOf,
  LOCAL_SCRIPT,
  modelStoryboard,
  NARRATOR,
  savedStoryboard,
  storyboardFromScript,
  type ScriptLine,
  type StoryboardShot,
} from './script';
import {
  AspectSchema,
  NarrationSchema,
  ShotImagesSchema,
  SpeakerVoicesSchema,
} from '../kit/outputs';
import { shotsOf } from '../kit/storyboard';
import type { ChatModel } from '../../../providers/chat';
import { splitSentences } from '../../engine/captions';
import { stillsComposeStage } from '../kit/stills-compose';
import { clipsStage, wantsMotion } from '../kit/clips';
import { drawWorkShots, type KeepPicture } from '../kit/shots';
import { requireSpeakable, taskFiles, workIdOf, type MediaPipelineOptions } from '../kit/pipeline';
import { assignVoices, speakDialogue, speakerGenders } from '../kit/dialogue';
import { chooseMusic } from '../kit/work-inputs';

/** The camera sizes of the work's shots (a union mapped over CAMERAS would type as never). */
const CameraSchema = Type.Union(Shot.properties.camera.anyOf);

/** A storyboard shot (script.ts StoryboardShot) as the script stage stores the saved one. */
const StoryboardShotSchema = Type.Object({
  index: Type.Number(),
  speaker: Type.String(),
  line: Type.String(),
  camera: CameraSchema,
  scene: Type.String(),
  imagePrompt: Type.String(),
});

/** A storyboard shot as the stages store it: the line cut into sentences for the captions. */
const AnimeShotSchema = Type.Object({
  ...StoryboardShotSchema.properties,
  caption: Type.String(),
  sentences: Type.Array(Type.String()),
});
type AnimeShot = Static<typeof AnimeShotSchema>;

/** Engine of a storyboard the creator edited on the storyboard page. */
const USER_STORYBOARD = '用户分镜';

/**
 * The storyboard of a script: the model's when one is configured and answers (every line keeps
 * the local design it skipped), else the local one.
 */
async function designStoryboard(
  chatModel: ChatModel | null | undefined,
  lines: ScriptLine[],
  signal: AbortSignal,
): Promise<{ board: StoryboardShot[]; engine: string }> {
  if (chatModel) {
    const board = await modelStoryboard(chatModel, lines, signal).catch((error: unknown) => {
      if (signal.aborted) throw error;
      return null;
    });
    if (board) return { board, engine: chatModel.label };
  }
  return { board: storyboardFromScript(lines), engine: LOCAL_SCRIPT };
}

const animeShotOf = (shot: StoryboardShot): AnimeShot => ({
  ...shot,
  caption: captionOf(shot),
  sentences: splitSentences(shot.line),
});

/**
 * Which picture on the work a shot keeps. A storyboard the creator saw and checked is drawn as
 * saved, shot by shot (their redraws included: the pictures are what they approved); a board
 * designed again keeps only the pictures of shots whose caption did not change.
 */
const keepPicture =
  (boardWasSaved: boolean): KeepPicture =>
  (stored, shot) =>
    !stored.needsRegeneration && (boardWasSaved || stored.caption === shot.caption);

/**
 * The anime short (type 11): an idea or a story becomes a script with speakers, a storyboard
 * with a camera and a scene per line, a picture per shot (the roles drawn the same way in
 * every shot), each line in its speaker's voice, composed like the comic clip.
 */
export function animePipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;

  const script = defineStage({
    name: 'script',
    label: '剧本',
    weight: 1,
    output: Type.Object({
      lines: Type.Array(Type.Object({ speaker: Type.String(), text: Type.String() })),
      engine: Type.String(),
      note: Type.Optional(Type.String()),
      /** The storyboard the creator saved for this very script, drawn as saved. */
      storyboard: Type.Optional(Type.Array(StoryboardShotSchema)),
      voices: SpeakerVoicesSchema,
      aspect: AspectSchema,
      speed: Type.Number(),
      musicId: Type.Number(),
      /** The shots move (kit/clips.ts); absent in tasks made before motion: stills. */
      motion: Type.Optional(Type.Boolean()),
    }),
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      const text = requireSpeakable(work.text);
      const settings: VideoSettings = work.settings;
      // A text already in 「角色：台词」 form (the caption page's) is the script as written.
      const { lines, engine, note } = await adaptScript(text, options.providers.chat, ctx.signal);
      if (lines.length === 0) throw new UserInputError('「剧本」中没有可朗读的台词');
      // The storyboard page's shots, when they are still this script's.
      const storyboard = savedStoryboard(work.shots, lines);
      const speakers = [...new Set(lines.map((line) => line.speaker))];
      // The narrator speaks with the work's voice when one is chosen (the SDK's rule, which the
      // pages estimate the length with).
      const chosen = animeChosenVoices(settings);
      // Each character's default voice is of its gender: its role's, else the story's word.
      const roles = await options.repos.roles.listOfWork(ctx.task.userId, work.workId);
      const voices = assignVoices(
        speakers,
        chosen,
        (voiceId) => options.providers.speech.findVoice(voiceId) !== null,
        speakerGenders(speakers, roles, text),
      );
      ctx.reportProgress(100);
      return {
        lines,
        engine,
        ...(note ? { note } : {}),
        ...(storyboard ? { storyboard } : {}),
        voices,
        aspect: settings.aspect,
        speed: settings.speed ?? 1,
        musicId: await chooseMusic(options, ctx.task.userId, workIdOf(ctx), settings.musicId),
        // The anime short moves wherever a video service is configured, unless turned off.
        motion: wantsMotion(options.providers.videos, settings.motion, true),
      };
    },
  });

  const shots = defineStage({
    name: 'shots',
    label: '分镜',
    weight: 1,
    output: Type.Object({ shots: Type.Array(AnimeShotSchema), engine: Type.String() }),
    async run(ctx) {
      const spec = script.output(ctx);
      const saved = spec.storyboard;
      const { board, engine } = saved
        ? { board: saved, engine: USER_STORYBOARD }
        : await designStoryboard(options.providers.chat, spec.lines, ctx.signal);
      const list: AnimeShot[] = board.map(animeShotOf);
      ctx.reportProgress(100);
      return { shots: list, engine };
    },
  });

  const shotList = (ctx: StageContext) => shotsOf(shots, ctx, '分镜为空，请重新生成');

  const images = defineStage({
    name: 'images',
    weight: 2,
    output: ShotImagesSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      return drawWorkShots(
        options,
        ctx,
        shotList(ctx),
        spec.aspect,
        keepPicture(spec.storyboard !== undefined),
      );
    },
  });

  const voice = defineStage({
    name: 'voice',
    weight: 3,
    output: Type.Object({
      ...NarrationSchema.properties,
      speakers: Type.Array(Type.String()),
      shotDurations: Type.Array(Type.Number()),
    }),
    async run(ctx) {
      const spec = script.output(ctx);
      const list = shotList(ctx);
      const { rel, abs } = taskFiles(options, ctx);
      const order = list.flatMap((shot) =>
        shot.sentences.map((text) => ({ speaker: shot.speaker, text })),
      );
      const relative = rel('narration.wav');
      const spoken = await speakDialogue(order, spec.voices, abs(relative), {
        speed: spec.speed,
        signal: ctx.signal,
        speech: options.providers.speech,
        caption: (line) =>
          line.speaker === NARRATOR ? line.text : `${line.speaker}：${line.text}`,
        onProgress: (percent) => ctx.reportProgress(percent * 0.95),
      });
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
  });

  const clips = clipsStage(options, { script, shots: shotList, images, voice });

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

/**
 * The anime short's storyboard task (`anime_storyboard`, no count): the work's script becomes
 * shots with a camera, a scene and a picture prompt each, written onto the work at once so the
 * storyboard page shows them, then every shot without a picture is drawn with the work's roles
 * and style. A storyboard the creator already edited for this very script is kept as it is
 * (only its missing pictures are drawn), so going back a step and on again loses nothing.
 */
export function animeStoryboardPipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const workOf = async (ctx: StageContext) => {
    const work = await works.find(ctx.task.userId, workIdOf(ctx));
    if (!work) throw new UserInputError('作品不存在或已删除');
    return work;
  };

  const shots = defineStage({
    name: 'shots',
    label: '分镜',
    weight: 1,
    output: Type.Object({
      engine: Type.String(),
      scriptEngine: Type.String(),
      count: Type.Number(),
    }),
    async run(ctx) {
      const work = await workOf(ctx);
      const text = requireSpeakable(work.text, '剧本');
      const script = await adaptScript(text, options.providers.chat, ctx.signal);
      if (script.lines.length === 0) throw new UserInputError('「剧本」中没有可朗读的台词');
      const saved = savedStoryboard(work.shots, script.lines);
      const { board, engine } = saved
        ? { board: saved, engine: USER_STORYBOARD }
        : await designStoryboard(options.providers.chat, script.lines, ctx.signal);
      // A board designed again keeps the pictures of the shots whose caption it kept.
      const byCaption = new Map(work.shots.map((shot) => [shot.caption, shot]));
      const next: Shot[] = board.map((shot, index) => {
        const caption = captionOf(shot);
        const old = saved ? work.shots[index] : byCaption.get(caption);
        return {
          index,
          caption,
          imagePrompt: shot.imagePrompt,
          roleIds: old?.roleIds ?? [],
          imageUrl: old?.imageUrl ?? '',
          audioUrl: '',
          durationMs: 0,
          needsRegeneration: old?.needsRegeneration ?? false,
          ...(old?.imageEngine ? { imageEngine: old.imageEngine } : {}),
          speaker: shot.speaker,
          line: shot.line,
          camera: shot.camera,
          scene: shot.scene,
        };
      });
      // Written only over the shots it was designed from: a storyboard the person saved while
      // the stage ran stays, and the later stages read it from the work.
      const started = JSON.stringify(work.shots);
      await works.changeShots(ctx.task.userId, work.workId, (current) =>
        JSON.stringify(current) === started ? next : null,
      );
      ctx.reportProgress(100);
      return { engine, scriptEngine: script.engine, count: next.length };
    },
  });

  const images = defineStage({
    name: 'images',
    weight: 4,
    output: ShotImagesSchema,
    async run(ctx) {
      const work = await workOf(ctx);
      const list = work.shots.map((shot) => ({
        index: shot.index,
        caption: shot.caption,
        imagePrompt: shot.imagePrompt,
        ...(shot.speaker !== undefined ? { speaker: shot.speaker } : {}),
        ...(shot.line !== undefined ? { line: shot.line } : {}),
        ...(shot.camera !== undefined ? { camera: shot.camera } : {}),
        ...(shot.scene !== undefined ? { scene: shot.scene } : {}),
      }));
      if (list.length === 0) throw new StageError('分镜为空，请重新生成');
      return drawWorkShots(options, ctx, list, work.settings.aspect, keepPicture(true));
    },
  });

  return [shots, images];
}
