import path from 'node:path';
import { Type, type Static } from 'typebox';
import type { VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { splitSentences } from '../../engine/captions';
import { chooseMusic, ownUploads, uploadedFile } from '../kit/work-inputs';
import {
  cleanScript,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
  outputSize,
} from '../kit/pipeline';
import { assignVoices, speakDialogue, speakerGenders } from '../kit/dialogue';
import {
  AspectSchema,
  FinishedVideoSchema,
  NarrationSchema,
  SpeakerVoicesSchema,
} from '../kit/outputs';
import { renderNarratedSegments } from '../kit/render-narrated';

/** A scene as the script stage stores it. */
const OperaSceneSpecSchema = Type.Object({
  kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
  url: Type.String(),
  /** Each line split into sentences: one caption and one timing each. */
  lines: Type.Array(Type.Object({ speaker: Type.String(), sentences: Type.Array(Type.String()) })),
});
type OperaSceneSpec = Static<typeof OperaSceneSpecSchema>;

/**
 * The real-person short drama (type 8): the user's own clip or photo for each scene, each line
 * spoken in its character's voice, captions 「角色：台词」 sentence by sentence, and the scenes
 * joined in order, each as long as its lines.
 */
export function operaPipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const abs = (relative: string) => path.join(options.mediaDir, relative);
  const taskRel = (ctx: StageContext, ...parts: string[]) => taskFiles(options, ctx).rel(...parts);

  const script = defineStage({
    name: 'script',
    weight: 0.5,
    output: Type.Object({
      scenes: Type.Array(OperaSceneSpecSchema),
      voices: SpeakerVoicesSchema,
      musicId: Type.Number(),
      aspect: AspectSchema,
      speed: Type.Number(),
    }),
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      const settings: VideoSettings = work.settings;
      const scenes = settings.scenes ?? [];
      if (scenes.length === 0)
        throw new UserInputError('请先添加「场景」：每个场景一段视频或一张照片和台词');
      const uploads = await ownUploads(
        options,
        ctx.task.userId,
        scenes.map((s) => s.mediaUrl),
        ['image', 'video'],
        (i) => `第 ${i + 1} 个场景的素材`,
      );
      const specs: OperaSceneSpec[] = scenes.map((scene, i) => ({
        kind: uploads[i]?.kind === 'video' ? 'video' : 'image',
        url: uploads[i]?.url ?? scene.mediaUrl,
        lines: scene.lines.map((line, j) => {
          const speaker = cleanScript(line.speaker).replace(/\n/g, ' ');
          const sentences = splitSentences(cleanScript(line.text));
          if (!speaker)
            throw new UserInputError(`第 ${i + 1} 个场景第 ${j + 1} 句台词缺少「角色」`);
          if (sentences.length === 0)
            throw new UserInputError(`第 ${i + 1} 个场景第 ${j + 1} 句台词没有可朗读的文字`);
          return { speaker, sentences };
        }),
      }));
      const speakers = [...new Set(specs.flatMap((s) => s.lines.map((l) => l.speaker)))];
      // Each character's default voice is of its gender: its role's, else the script's word.
      const roles = await options.repos.roles.listOfWork(ctx.task.userId, work.workId);
      const voices = assignVoices(
        speakers,
        settings.roleVoices ?? {},
        (voiceId) => options.providers.speech.findVoice(voiceId) !== null,
        speakerGenders(speakers, roles, work.text),
      );
      const musicId = await chooseMusic(options, ctx.task.userId, work.workId, settings.musicId);
      ctx.reportProgress(100);
      // Snapshotted here so a resumed task renders what was asked at start.
      return {
        scenes: specs,
        voices,
        musicId,
        aspect: settings.aspect,
        speed: settings.speed ?? 1,
      };
    },
  });

  const voice = defineStage({
    name: 'voice',
    weight: 3,
    output: Type.Object({
      ...NarrationSchema.properties,
      speakers: Type.Array(Type.String()),
      sceneDurations: Type.Array(Type.Number()),
    }),
    async run(ctx) {
      const { scenes, voices, speed } = script.output(ctx);
      // Every sentence in speaking order, with its speaker and scene.
      const order = scenes.flatMap((scene, sceneIndex) =>
        scene.lines.flatMap((line) =>
          line.sentences.map((text) => ({ sceneIndex, speaker: line.speaker, text })),
        ),
      );
      const relative = taskRel(ctx, 'narration.wav');
      const joined = await speakDialogue(order, voices, abs(relative), {
        speed,
        signal: ctx.signal,
        speech: options.providers.speech,
        caption: (line) => `${line.speaker}：${line.text}`,
        onProgress: (percent) => ctx.reportProgress(percent * 0.9),
      });
      // A scene lasts from its first sentence's start to the next scene's (pauses included).
      const starts = scenes.map((_, sceneIndex) => {
        const first = order.findIndex((o) => o.sceneIndex === sceneIndex);
        return sceneIndex === 0 ? 0 : (joined.segments[first]?.startMs ?? 0);
      });
      ctx.reportProgress(100);
      return {
        narration: relative,
        durationMs: joined.durationMs,
        cues: joined.segments,
        // Which cue each speaker said, so a test or a page can find one voice's audio.
        speakers: order.map((o) => o.speaker),
        sceneDurations: starts.map((start, i) => (starts[i + 1] ?? joined.durationMs) - start),
      };
    },
  });

  const compose = defineStage({
    name: 'compose',
    weight: 6,
    output: FinishedVideoSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      const { aspect, scenes } = spec;
      const spoken = voice.output(ctx);
      const durations = spoken.sceneDurations;
      const size = outputSize(options, aspect);
      const segments = [];
      for (const [i, scene] of scenes.entries()) {
        const file = await uploadedFile(options, scene.url);
        // The upload row exists (checked at the start) but its file is gone: the server's fault.
        if (!file)
          throw new StageError(`第 ${i + 1} 个场景的素材文件丢失，请重新上传`, { shot: i + 1 });
        segments.push({
          // A clip shorter than its lines repeats; its own sound is dropped by the composer.
          media: {
            kind: scene.kind,
            path: file,
            ...(scene.kind === 'video' ? { loop: true } : {}),
          },
          durationMs: durations[i] ?? 0,
        });
      }
      return renderNarratedSegments(options, ctx, {
        aspect,
        size,
        segments,
        narration: spoken.narration,
        cues: spoken.cues,
        musicId: spec.musicId,
      }).catch((error: unknown) => {
        if (ctx.signal.aborted) throw error;
        throw new StageError('场景素材合成失败，请检查上传的视频或照片后重试', {
          provider: 'ffmpeg',
          cause: error,
        });
      });
    },
  });

  return [script, voice, compose];
}
