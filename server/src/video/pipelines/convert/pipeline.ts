import { copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Type } from 'typebox';
import { DedupPresets, type VideoSettings } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { ProviderError } from '../../../providers/errors';
import { splitSentences, type Aspect } from '../../engine/captions';
import { probeWithFfmpeg } from '../../engine/ffmpeg';
import { ownUploads, uploadedFile } from '../kit/work-inputs';
import {
  cleanScript,
  exists,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
  outputSize,
} from '../kit/pipeline';
import { AspectSchema, FinishedVideoSchema, SpokenNarrationSchema } from '../kit/outputs';
import { speakNarration } from '../kit/voice';
import { DEFAULT_VOICE_ID } from '../../../providers/speech/espeak';
import { DedupRangeError, dedupFilters, loopSegments, sourceWindow } from '../../engine/dedup';
import {
  extractSpeechAudio,
  extractSubtitleCues,
  scriptOfCues,
  scriptOfTranscript,
} from '../../engine/subtitles';
import type { Transcriber } from '../../../providers/transcription';
import { renderNarratedSegments } from '../kit/render-narrated';

/** Reads `transcribe` (AppConfig.transcribe) and `tts` of the media pipeline options. */
export type ConvertPipelineOptions = MediaPipelineOptions;

const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** A preset out of range is the user's to fix: no count back. */
function userPresets<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof DedupRangeError) throw new UserInputError(error.message);
    throw error;
  }
}

/** Where the video's own script came from, and why there is none when there is none. */
export interface Extracted {
  script: string;
  from: 'subtitles' | 'transcription' | 'none';
  /** The transcription service's label when it spoke. */
  engine?: string;
  /** Why nothing was found (Chinese, for the user). */
  missing?: string;
  /** The transcription service failed (its Chinese message names it). */
  failure?: ProviderError;
}

/**
 * The script of the source video: its first text subtitle track; else, when a transcription
 * service is configured, what it hears; else nothing, and `missing` says why.
 */
export async function extractScript(
  videoPath: string,
  ctx: Pick<StageContext, 'workDir' | 'signal' | 'reportProgress'>,
  transcriber: Transcriber | null,
): Promise<Extracted> {
  const cues = await extractSubtitleCues(videoPath, ctx.workDir);
  const fromSubtitles = cues ? scriptOfCues(cues) : '';
  if (hasWords(fromSubtitles)) return { script: fromSubtitles, from: 'subtitles' };
  const noTrack = cues === null ? '该视频没有字幕轨' : '该视频的字幕轨中没有文字';
  if (!transcriber) {
    return {
      script: '',
      from: 'none',
      missing: `${noTrack}，也未配置语音转写服务，请在「文案」中填写脚本`,
    };
  }
  const audio = path.join(ctx.workDir, 'speech.mp3');
  if (!(await extractSpeechAudio(videoPath, audio))) {
    return {
      script: '',
      from: 'none',
      missing: `${noTrack}，也没有声音可以转写，请在「文案」中填写脚本`,
    };
  }
  ctx.reportProgress(40);
  try {
    const transcript = await transcriber.transcribe(audio, ctx.signal);
    const script = scriptOfTranscript(transcript);
    return {
      script,
      from: 'transcription',
      engine: transcriber.label,
      ...(hasWords(script)
        ? {}
        : {
            missing: `语音转写服务 ${transcriber.label} 没有从视频中听出文字，请在「文案」中填写脚本`,
          }),
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { script: '', from: 'none', engine: transcriber.label, failure: error };
  } finally {
    await rm(audio, { force: true });
  }
}

/**
 * The reverse video (type 3): the user's uploaded video, its script (subtitle track or
 * transcription), the user's rewrite (the work's text, which wins when there is one), a new
 * voice, and the de-duplication presets. The source picture, trimmed, de-duplicated and
 * without its sound, is looped or cut to the new narration and composed like every type
 * (captions burned, music ducked, -16 LUFS, 30 fps H.264/AAC, SRT, cover).
 */
export function convertPipeline(options: ConvertPipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const transcriber = options.providers.transcription;
  const abs = (relative: string) => path.join(options.mediaDir, relative);
  const taskRel = (ctx: StageContext, ...parts: string[]) => taskFiles(options, ctx).rel(...parts);
  const sizeOf = (aspect: Aspect) => outputSize(options, aspect);

  const script = defineStage({
    name: 'script',
    weight: 1,
    output: Type.Object({
      text: Type.String(),
      scriptSource: Type.String(),
      extractedScript: Type.String(),
      extractedFrom: Type.String(),
      transcriptionEngine: Type.Optional(Type.String()),
      note: Type.Optional(Type.String()),
      /** The source video linked into the task, relative to the media dir. */
      source: Type.String(),
      sourceDurationMs: Type.Number(),
      window: Type.Object({ startMs: Type.Number(), endMs: Type.Number() }),
      aspect: AspectSchema,
      voiceId: Type.String(),
      speed: Type.Number(),
      dedup: DedupPresets,
    }),
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      const settings: VideoSettings = work.settings;
      const url = settings.sourceVideoUrl?.trim() ?? '';
      if (!url) throw new UserInputError('请先上传「原视频」');
      const [upload] = await ownUploads(
        options,
        ctx.task.userId,
        [url],
        ['video'],
        () => '「原视频」',
      );
      const dedup: DedupPresets = settings.dedup ?? {};
      // Checked before any long work: a preset out of range fails now, not after the voice.
      userPresets(() => dedupFilters(dedup, sizeOf(settings.aspect)));

      // Linked (or copied) into the task, so a resumed or re-composed task survives the
      // upload being deleted; a hard link costs nothing for a 200 MB file.
      const sourceRel = taskRel(ctx, `source${path.extname(url)}`);
      if (!(await exists(abs(sourceRel)))) {
        // Fetched only when the task has no copy yet (a local file of the store's).
        const uploaded = await uploadedFile(options, url);
        if (!uploaded) throw new UserInputError('「原视频」文件已不存在，请重新上传');
        await mkdir(path.dirname(abs(sourceRel)), { recursive: true });
        const part = `${abs(sourceRel)}.part`;
        await rm(part, { force: true });
        await link(uploaded, part).catch(() => copyFile(uploaded, part));
        await rename(part, abs(sourceRel));
      }
      const sourceMs =
        upload?.durationMs ?? (await probeWithFfmpeg(abs(sourceRel))).durationMs ?? 0;
      const window = userPresets(() => sourceWindow(dedup, sourceMs));
      ctx.reportProgress(20);

      const extracted = await extractScript(abs(sourceRel), ctx, transcriber);
      const own = cleanScript(work.text);
      const useOwn = hasWords(own);
      if (!useOwn) {
        if (extracted.failure) {
          throw new StageError(extracted.failure.message, {
            provider: extracted.engine ?? '语音转写',
            cause: extracted.failure,
          });
        }
        if (extracted.missing) throw new UserInputError(extracted.missing);
      }
      const note =
        useOwn && extracted.failure
          ? `语音转写失败（${extracted.failure.message}），已使用「文案」中的脚本`
          : undefined;
      ctx.reportProgress(100);
      // Snapshotted here so a resumed task renders what was asked at start.
      return {
        text: useOwn ? own : cleanScript(extracted.script),
        scriptSource: useOwn ? 'work' : extracted.from,
        // The video's own script, for the page to show beside the rewrite.
        extractedScript: extracted.script,
        extractedFrom: extracted.from,
        ...(extracted.engine ? { transcriptionEngine: extracted.engine } : {}),
        ...(note ? { note } : {}),
        source: sourceRel,
        sourceDurationMs: sourceMs,
        window,
        aspect: settings.aspect,
        voiceId: settings.voiceId ?? DEFAULT_VOICE_ID,
        speed: settings.speed ?? 1,
        dedup,
      };
    },
  });

  const voice = defineStage({
    name: 'voice',
    weight: 3,
    output: SpokenNarrationSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      const sentences = splitSentences(spec.text);
      if (sentences.length === 0) throw new UserInputError('「文案」中没有可朗读的句子');
      return speakNarration(options, ctx, sentences, spec);
    },
  });

  const compose = defineStage({
    name: 'compose',
    weight: 6,
    output: FinishedVideoSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      const spoken = voice.output(ctx);
      const { aspect, dedup, window } = spec;
      const size = sizeOf(aspect);
      const source = abs(spec.source);
      const segments = loopSegments(window, dedup.speed ?? 1, spoken.durationMs).map((segment) => ({
        media: {
          kind: 'video' as const,
          path: source,
          startMs: segment.startMs,
          endMs: segment.endMs,
        },
        durationMs: segment.durationMs,
      }));
      return renderNarratedSegments(options, ctx, {
        aspect,
        size,
        segments,
        narration: spoken.narration,
        cues: spoken.cues,
        // The reverse video has no music choice: the work's default track.
        musicId: null,
        videoFilters: userPresets(() => dedupFilters(dedup, size)),
      });
    },
  });

  return [script, voice, compose];
}
