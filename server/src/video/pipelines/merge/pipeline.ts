import { createHash } from 'node:crypto';
import type { Repositories } from '../../../repositories';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { Type } from 'typebox';
import {
  DedupPresets,
  MUSIC_VOLUME_DEFAULT,
  ProjectType,
  QUOTA_FIELDS,
  QUOTA_TYPE_OF_PROJECT,
  type ProjectType as ProjectTypeValue,
} from '@kol/shared-sdk/contracts';
import type { SpokenSegment } from '../../../repositories/cut-videos';
import { pictureFile } from '../../../uploads/picture-file';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { apportionByChars, splitSentences, type Cue } from '../../engine/captions';
import { defaultSize } from '../../engine/compose';
import { DedupRangeError, dedupFilters } from '../../engine/dedup';
import type { ComposeSegment } from '../../engine/compose-segments';
import { refuseFlagged } from '../kit/narration';
import { renderLocalPictureToFile } from '../../engine/looks/render';
import { resolveMaterial } from '../../library/materials';
import {
  checkAborted,
  exists,
  mediaUrl,
  num,
  otherTaskFile,
  str,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
  outputSize,
} from '../kit/pipeline';
import { SENTENCE_PAUSE_MS } from '../../../providers/speech/espeak';
import { pcmLike } from '../kit/dialogue';
import { joinSpoken, wavDurationMs, writeWav, type Pcm } from '../../../providers/speech/wav';
import { renderNarratedSegments } from '../kit/render-narrated';
import { AspectSchema, FinishedVideoSchema, MusicIdSchema, NarrationSchema } from '../kit/outputs';
import { speakOrFail } from '../kit/voice';

/** The types with cut-video data: every type but scroll (2), whose text simply scrolls. */
export const CUT_VIDEO_TYPES: readonly ProjectTypeValue[] = [
  ProjectType.comics,
  ProjectType.decompression,
  ProjectType.convert,
  ProjectType.market,
  ProjectType.comicsOverseas,
  ProjectType.decompressionOverseas,
  ProjectType.realOpera,
  ProjectType.animeShorts,
];

/** The types whose quota has a merge count: they get the merge pipeline. */
export const MERGE_TYPES = CUT_VIDEO_TYPES.filter(
  (type) => QUOTA_FIELDS[QUOTA_TYPE_OF_PROJECT[type]].merge !== null,
);

/** The types generate_cut_tts serves (its own task kind, 'cut-speech'): every cut-video type. */
export const CUT_TTS_TYPES = CUT_VIDEO_TYPES;

/** Speaks one segment's text (its sentences, joined with the usual pause). */
function segmentSentences(text: string): string[] {
  const sentences = splitSentences(text);
  return sentences.length > 0 ? sentences : [text.trim()];
}

/**
 * generate_cut_tts: each segment of the work's cut video spoken with the asked voice into its
 * own WAV, then stored back into the cut data (only where the text is still the one spoken).
 * Files are named by a hash of what was spoken, so a resumed task skips finished segments.
 */
export function cutSpeechPipeline(options: MediaPipelineOptions): StageHandler[] {
  const cutVideos = options.repos.cutVideos;

  const voice = defineStage({
    name: 'voice',
    weight: 1,
    output: Type.Object({
      segments: Type.Array(
        Type.Object({
          index: Type.Number(),
          text: Type.String(),
          audio: Type.String(),
          audioDurationMs: Type.Number(),
          voiceId: Type.Optional(Type.String()),
          speed: Type.Optional(Type.Number()),
          audioUrl: Type.String(),
        }),
      ),
    }),
    async run(ctx) {
      const workId = workIdOf(ctx);
      const cut = await cutVideos.find(ctx.task.userId, workId);
      if (!cut || cut.segments.length === 0) throw new UserInputError('剪辑数据为空，请先编辑片段');
      const taskVoice = str(ctx.task.input.voiceId);
      const taskSpeed = num(ctx.task.input.speed, 1);
      // Only these segments when asked (one shot regenerated alone); else every one.
      const only = Array.isArray(ctx.task.input.indexes)
        ? new Set(ctx.task.input.indexes as number[])
        : null;
      const targets = [...cut.segments.entries()].filter(([index]) => !only || only.has(index));
      const files = taskFiles(options, ctx);
      const spoken: SpokenSegment[] = [];
      for (const [done, [index, segment]] of targets.entries()) {
        checkAborted(ctx.signal);
        // A segment's own voice and speed win over the task's.
        const voiceId = segment.voiceId ?? taskVoice;
        const speed = segment.speed ?? taskSpeed;
        const tag = createHash('sha256')
          .update(JSON.stringify([segment.text, voiceId, speed]))
          .digest('hex')
          .slice(0, 12);
        const audio = files.rel(`segment-${String(index).padStart(3, '0')}-${tag}.wav`);
        if (!(await exists(files.abs(audio)))) {
          await speakOrFail(
            options,
            ctx,
            segmentSentences(segment.text),
            files.abs(audio),
            { voiceId, speed },
            { shot: index + 1 },
          );
        }
        const audioDurationMs = await wavDurationMs(files.abs(audio));
        spoken.push({
          index,
          text: segment.text,
          audio,
          audioDurationMs,
          ...(segment.voiceId !== undefined ? { voiceId: segment.voiceId } : {}),
          ...(segment.speed !== undefined ? { speed: segment.speed } : {}),
        });
        ctx.reportProgress(((done + 1) / targets.length) * 95);
      }
      await cutVideos.attachAudio(ctx.task.userId, workId, spoken, taskVoice);
      ctx.reportProgress(100);
      return {
        segments: spoken.map((s) => ({ ...s, audioUrl: mediaUrl(s.audio) })),
      };
    },
  });
  return [voice];
}

/**
 * The shots and pictures (relative to the media dir, by shot) of the work's newest finished
 * video: the editor starts from them, and a merge shows them for the sentences they carried.
 */
export async function latestVideoPictures(
  repos: Pick<Repositories, 'videoTasks'>,
  userId: number,
  workId: number,
): Promise<{ shots: Array<{ sentences: string[] }>; images: string[] }> {
  const outputs = await repos.videoTasks.latestVideoOutputs(userId, workId);
  const shots = Array.isArray(outputs?.shots) ? (outputs.shots as unknown[]) : [];
  const images = Array.isArray(outputs?.images) ? (outputs.images as unknown[]) : [];
  return {
    shots: shots.map((shot) => {
      const sentences = (shot as { sentences?: unknown }).sentences;
      return {
        sentences: Array.isArray(sentences)
          ? sentences.filter((x): x is string => typeof x === 'string')
          : [],
      };
    }),
    images: images.map((image) => (typeof image === 'string' ? image : '')),
  };
}

/** A segment of the cut video (db/schema.ts StoredCutSegment) as the merge's script stores it. */
const MergeSegmentSchema = Type.Object({
  index: Type.Number(),
  text: Type.String(),
  materialId: Type.Union([Type.Number(), Type.Null()]),
  startMs: Type.Number(),
  endMs: Type.Number(),
  /** The segment's speech, relative to the media dir ('' until generate_cut_tts made it). */
  audio: Type.String(),
  audioDurationMs: Type.Optional(Type.Number()),
  imageUrl: Type.Optional(Type.String()),
  voiceId: Type.Optional(Type.String()),
  speed: Type.Optional(Type.Number()),
  speaker: Type.Optional(Type.String()),
});

/**
 * The de-duplication filters of a reverse video's source; a preset out of range (saved since
 * the video was made) is the user's to fix.
 */
function sourceFilters(dedup: DedupPresets, size: { width: number; height: number }): string[] {
  try {
    return dedupFilters(dedup, size);
  } catch (error) {
    if (error instanceof DedupRangeError) throw new UserInputError(error.message);
    throw error;
  }
}

/**
 * send_merge_request / re_send_merge_request: the finished cut video rendered. Every segment
 * shows its material window (looped when shorter than its audio; a reverse video's source
 * de-duplicated as the video was) or the work's own shot picture, for as long as its own audio
 * lasts; the segments' audio joined is the narration. Segments the editor took from a finished
 * video (video/cut-from-video.ts) and did not change thus come out as that video had them.
 */
export function mergePipeline(options: MediaPipelineOptions): StageHandler[] {
  const cutVideos = options.repos.cutVideos;
  const works = options.repos.works;
  const abs = (relative: string) => path.join(options.mediaDir, relative);

  const script = defineStage({
    name: 'script',
    label: '剪辑数据',
    weight: 0.5,
    output: Type.Object({
      aspect: AspectSchema,
      musicId: MusicIdSchema,
      musicVolume: Type.Number(),
      segments: Type.Array(MergeSegmentSchema),
      /**
       * A reverse video's source (its upload as a material) and its de-duplication: the
       * segments that show it are de-duplicated as the video was.
       */
      source: Type.Optional(Type.Object({ materialId: Type.Number(), dedup: DedupPresets })),
    }),
    async run(ctx) {
      const workId = workIdOf(ctx);
      const work = await works.find(ctx.task.userId, workId);
      const cut = await cutVideos.find(ctx.task.userId, workId);
      if (!work || !cut) throw new UserInputError('作品不存在或已删除');
      if (!cut.finished || cut.segments.length === 0)
        throw new UserInputError('剪辑尚未完成，请先生成配音并完成剪辑');
      refuseFlagged(cut.segments.map((s) => s.text).join('\n'), '片段文案');
      const sourceUrl =
        work.type === ProjectType.convert ? (work.settings.sourceVideoUrl?.trim() ?? '') : '';
      const source = sourceUrl
        ? await options.repos.uploads.findOwnedByUrl(ctx.task.userId, sourceUrl)
        : null;
      const dedup = work.settings.dedup ?? {};
      // Checked now, so a preset out of range fails before the voice is joined.
      if (source) sourceFilters(dedup, defaultSize(work.settings.aspect));
      ctx.reportProgress(100);
      return {
        aspect: work.settings.aspect,
        musicId: cut.musicId ?? work.settings.musicId ?? null,
        musicVolume: cut.musicVolume ?? MUSIC_VOLUME_DEFAULT,
        segments: cut.segments.map((segment, index) => ({ ...segment, index })),
        ...(source?.kind === 'video' ? { source: { materialId: source.assetId, dedup } } : {}),
      };
    },
  });

  const voice = defineStage({
    name: 'voice',
    weight: 1,
    output: Type.Object({ ...NarrationSchema.properties, durations: Type.Array(Type.Number()) }),
    async run(ctx) {
      const { segments } = script.output(ctx);
      const pcms: Pcm[] = [];
      for (const segment of segments) {
        // Spoken by the cut video's voice task, maybe on another machine.
        const audio = segment.audio ? await otherTaskFile(options, segment.audio) : null;
        if (!audio)
          throw new StageError('片段的配音文件不存在，请重新生成配音', { shot: segment.index + 1 });
        pcms.push(await pcmLike(audio, pcms[0] ?? null));
      }
      const joined = joinSpoken(
        pcms,
        segments.map((s) => s.text),
        SENTENCE_PAUSE_MS,
      );
      const relative = taskFiles(options, ctx).rel('narration.wav');
      await mkdir(path.dirname(abs(relative)), { recursive: true });
      await writeWav(`${abs(relative)}.part`, joined.pcm);
      await rename(`${abs(relative)}.part`, abs(relative));
      // Captions: each segment's sentences share its audio by length; a segment shows from
      // its audio's start to the next one's (the pause belongs to the segment before it).
      const cues: Cue[] = [];
      const durations: number[] = [];
      joined.segments.forEach((span, i) => {
        // A character's line is captioned with its name, which is not spoken.
        const speaker = segments[i]?.speaker;
        const offset = (cue: Cue) => ({
          text: speaker ? `${speaker}：${cue.text}` : cue.text,
          startMs: cue.startMs + span.startMs,
          endMs: cue.endMs + span.startMs,
        });
        cues.push(
          ...apportionByChars(segmentSentences(span.text), span.endMs - span.startMs).map(offset),
        );
        const next = joined.segments[i + 1]?.startMs ?? joined.durationMs;
        durations.push(next - span.startMs);
      });
      ctx.reportProgress(100);
      return { narration: relative, durationMs: joined.durationMs, cues, durations };
    },
  });

  /** The pictures of the work's newest finished video, by the sentences of its shots. */
  async function ownPictures(ctx: StageContext): Promise<Map<string, string>> {
    const { shots, images } = await latestVideoPictures(
      options.repos,
      ctx.task.userId,
      workIdOf(ctx),
    );
    const byText = new Map<string, string>();
    shots.forEach((shot, i) => {
      const image = images[i];
      if (!image) return;
      for (const sentence of shot.sentences) byText.set(sentence, image);
    });
    return byText;
  }

  const compose = defineStage({
    name: 'compose',
    weight: 4,
    output: FinishedVideoSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      const spoken = voice.output(ctx);
      const aspect = spec.aspect;
      const size = outputSize(options, aspect);
      const durations = spoken.durations;
      const pictures = await ownPictures(ctx);
      const files = taskFiles(options, ctx);
      const dedup = spec.source ? sourceFilters(spec.source.dedup, size) : [];
      const parts: ComposeSegment[] = [];
      /** Segments shown over a local card: no picture of their own, or theirs is gone. */
      const missingPictures: number[] = [];
      for (const segment of spec.segments) {
        const durationMs = durations[segment.index] ?? 0;
        if (segment.materialId === null) {
          // The segment's own picture (checked as the user's when it was saved), else the
          // work's picture for this text, else a local frame drawn from it, which the report
          // names as a segment without a picture.
          const chosen = segment.imageUrl
            ? await pictureFile(segment.imageUrl, ctx.task.userId, options)
            : null;
          const own = segmentSentences(segment.text)
            .map((sentence) => pictures.get(sentence))
            .find((image) => image !== undefined);
          let picture = chosen ?? (own ? ((await otherTaskFile(options, own)) ?? '') : '');
          if (!picture || !(await exists(picture))) {
            missingPictures.push(segment.index);
            picture = files.abs(files.rel('frames', `segment-${segment.index}.jpg`));
            if (!(await exists(picture)))
              await renderLocalPictureToFile(
                {
                  scene: segment.text,
                  caption: segment.text,
                  seriesKey: `work:${workIdOf(ctx)}`,
                  shotIndex: segment.index,
                  ...defaultSize(aspect),
                },
                picture,
              );
          }
          parts.push({ media: { kind: 'image', path: picture }, durationMs });
          continue;
        }
        const material = await resolveMaterial(options, ctx.task.userId, segment.materialId).catch(
          (error: unknown) => {
            throw new StageError('内置素材生成失败，请稍后重试', {
              shot: segment.index + 1,
              provider: 'ffmpeg',
              cause: error,
            });
          },
        );
        if (!material)
          throw new UserInputError(`第 ${segment.index + 1} 个片段的「素材」不存在或不属于你`);
        if (material.lost || !(await exists(material.path)))
          throw new StageError('片段的素材文件已丢失，请更换素材后重新合成', {
            shot: segment.index + 1,
          });
        parts.push({
          media: {
            kind: 'video',
            path: material.path,
            startMs: segment.startMs,
            endMs: segment.endMs,
            loop: true,
          },
          durationMs,
          // The reverse video's source is shown de-duplicated, as in the video it came from.
          ...(segment.materialId === spec.source?.materialId && dedup.length > 0
            ? { videoFilters: dedup }
            : {}),
        });
      }
      return renderNarratedSegments(options, ctx, {
        aspect,
        size,
        segments: parts,
        narration: spoken.narration,
        cues: spoken.cues,
        musicId: spec.musicId,
        musicVolume: spec.musicVolume,
        name: 'merge',
        missingPictures,
      });
    },
  });

  return [script, voice, compose];
}
