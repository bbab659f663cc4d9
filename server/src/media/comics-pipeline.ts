import os from 'node:os';
import path from 'node:path';
import type { VideoSettings } from '@kol/shared-sdk/contracts';
import { createWorksRepository } from '../repositories/works';
import { StageError, UserInputError } from '../tasks/errors';
import type { StageContext, StageHandler } from '../tasks/types';
import { splitSentences, writeCaptions, type Aspect, type Cue } from './captions';
import { composeVideo, defaultSize } from './compose';
import { renderFrameToFile } from './frames/render-frame';
import { AMBIENT_TRACKS, ensureAmbientTrack } from './music';
import {
  checkAborted,
  cleanScript,
  exists,
  mediaUrl,
  num,
  outputOf,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
} from './pipeline-kit';
import { DEFAULT_VOICE_ID, listVoices, synthesizeSentences } from './speech/espeak';

export { cleanScript, mediaUrl, type MediaPipelineOptions } from './pipeline-kit';

/** A shot of the comics pipeline as the `shots` stage stores it. */
export interface PipelineShot {
  index: number;
  caption: string;
  imagePrompt: string;
  sentences: string[];
}

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
      const text = cleanScript(work.text);
      if (!/[\p{L}\p{N}]/u.test(text)) throw new UserInputError('「文案」为空，请先填写文案');
      const settings: VideoSettings = work.settings;
      ctx.reportProgress(100);
      // The settings are snapshotted here so a resumed task renders what was asked at start.
      return {
        text,
        aspect: settings.aspect,
        voiceId: settings.voiceId ?? DEFAULT_VOICE_ID,
        speed: settings.speed ?? 1,
      };
    },
  };

  const shots: StageHandler = {
    name: 'shots',
    weight: 0.5,
    async run(ctx) {
      const text = str(outputOf(ctx, 'script').text);
      const list = groupShots(splitSentences(text));
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
      const list = shotsOf(ctx);
      const size = defaultSize(aspect);
      const files: string[] = [];
      for (const shot of list) {
        checkAborted(ctx.signal);
        const relative = taskRel(ctx, 'frames', `shot-${String(shot.index).padStart(3, '0')}.jpg`);
        // A frame written whole before a crash is kept: renderFrameToFile renames when done.
        if (!(await exists(abs(relative)))) {
          await renderFrameToFile({ scene: shot.imagePrompt, ...size }, abs(relative));
        }
        files.push(relative);
        ctx.reportProgress(((shot.index + 1) / list.length) * 100);
      }
      return { images: files };
    },
  };

  const voice: StageHandler = {
    name: 'voice',
    weight: 3,
    async run(ctx) {
      const settings = outputOf(ctx, 'script');
      const list = shotsOf(ctx);
      const known = listVoices().some((v) => v.voiceId === settings.voiceId);
      const sentences = list.flatMap((shot) => shot.sentences);
      const relative = taskRel(ctx, 'narration.wav');
      ctx.reportProgress(5);
      const spoken = await synthesizeSentences(sentences, abs(relative), {
        // A voice of a provider that is not configured here: the offline default speaks.
        voiceId: known ? str(settings.voiceId) : DEFAULT_VOICE_ID,
        speed: num(settings.speed, 1),
      }).catch((error: unknown) => {
        throw new StageError('离线语音合成失败，请稍后重试', {
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
        shotDurations,
      };
    },
  };

  const compose: StageHandler = {
    name: 'compose',
    weight: 6,
    async run(ctx) {
      const aspect = str(outputOf(ctx, 'script').aspect, '9:16') as Aspect;
      const frames = outputOf(ctx, 'images').images as string[];
      const spoken = outputOf(ctx, 'voice');
      const durations = spoken.shotDurations as number[];
      const cues = spoken.cues as Cue[];
      const size = options.renderSize ?? defaultSize(aspect);
      const dir = abs(taskRel(ctx));
      const captions = {
        srtPath: path.join(ctx.workDir, 'captions.srt'),
        assPath: path.join(ctx.workDir, 'captions.ass'),
      };
      await writeCaptions(cues, captions, size, aspect);
      // One built-in track per work, so a regenerated video keeps its music.
      const track = AMBIENT_TRACKS[workIdOf(ctx) % AMBIENT_TRACKS.length] ?? AMBIENT_TRACKS[0];
      const musicPath = track
        ? await ensureAmbientTrack(path.join(options.mediaDir, 'library', 'music'), track.id)
        : undefined;
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
        dir,
        {
          size,
          // Tasks already run one per core: shots of one task share the cores, not multiply them.
          concurrency: Math.max(1, Math.min(4, os.availableParallelism())),
          name: 'video',
          onProgress: (done, total) => ctx.reportProgress((done / total) * 100),
        },
      );
      const rel = (file: string) => path.relative(options.mediaDir, file);
      return {
        video: rel(result.videoPath),
        srt: rel(result.srtPath),
        cover: rel(result.coverPath),
        videoDurationMs: result.durationMs,
        // Read by get_work_result from the task's merged outputs.
        videoUrl: mediaUrl(rel(result.videoPath)),
        srtUrl: mediaUrl(rel(result.srtPath)),
        coverUrl: mediaUrl(rel(result.coverPath)),
      };
    },
  };

  return [script, shots, images, voice, compose];
}
