import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  LOCAL_FRAME_LABEL,
  MAX_TRUE_PEAK_DBTP,
  shotPicture,
  type QualityReport,
} from '@kol/shared-sdk/contracts';
import { findFlaggedTerms } from '../../library/vocabulary';
import type { StageContext, StageOutputs } from '../../../tasks/types';
import { lineLimit, lineWidth } from '../../engine/caption-lines';
import type { Aspect } from '../../engine/captions';
import { TARGET_LUFS, type ComposeResult } from '../../engine/compose';
import { probeWithFfmpeg, runFfmpeg, type FfmpegOptions } from '../../engine/ffmpeg';
import type { FinishedVideoOutput } from './outputs';
import { taskFiles, videoOutputs, type MediaPipelineOptions } from './pipeline';
import type { Speech } from '../../../providers/speech';
import { ESPEAK_ENGINE } from '../../../providers/speech/espeak';
import { KEPT_PICTURE_ENGINE } from './shots';

/** Loudness further than this from TARGET_LUFS is a problem (platforms re-level past ±1 LU). */
export const LOUDNESS_TOLERANCE_LU = 1;
/** The video may differ from narration plus its planned tail by this much (frame rounding, AAC). */
export const DURATION_TOLERANCE_MS = 500;
/** Silence measures -inf: stored as this floor, since JSON has no infinities. */
const FLOOR_DB = -120;

/** The integrated loudness and true peak of a file's first audio track (ebur128, peak=true). */
export async function measureLoudnessAndPeak(
  file: string,
  options: FfmpegOptions = {},
): Promise<{ loudnessLufs: number; truePeakDbtp: number }> {
  // framelog=verbose keeps the per-100 ms lines out of stderr: only the summary is read.
  const stderr = await runFfmpeg(
    ['-i', file, '-map', '0:a:0', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'],
    options,
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const loudness = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary);
  // ebur128 labels the true peak "dBFS"; with peak=true it is the oversampled (true) peak.
  const peak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf)/.exec(summary);
  if (!loudness || !peak) throw new Error(`无法测量成片响度：${path.basename(file)}`);
  const db = (text: string) => {
    const value = Number(text === '-inf' ? -Infinity : text);
    return Number.isFinite(value) ? Math.max(FLOOR_DB, value) : FLOOR_DB;
  };
  return { loudnessLufs: db(loudness[1] ?? ''), truePeakDbtp: db(peak[1] ?? '') };
}

/**
 * The caption lines of an SRT longer than the limit, by the rules the captions are laid out
 * with (caption-lines.ts): an English line by characters, any other by CJK cells per aspect.
 */
export function longCaptionLines(srt: string, aspect: Aspect): QualityReport['longCaptions'] {
  const long: QualityReport['longCaptions'] = [];
  for (const block of srt.replace(/\r/g, '').split(/\n\s*\n/)) {
    const lines = block.split('\n');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    for (const raw of lines.slice(timing + 1)) {
      // Styling tags (<i>, {\an8}) take no room on screen.
      const text = raw.replace(/<[^>]*>|\{[^}]*\}/g, '').trim();
      if (!text) continue;
      const chars = lineWidth(text);
      const limit = lineLimit(text, aspect);
      if (chars > limit) long.push({ text, chars, limit });
    }
  }
  return long;
}

const strings = (values: unknown[]): string[] => [
  ...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== '')),
];
const joined = (values: string[]): string | null => (values.length ? values.join('、') : null);

/** The engine name of a market picture the user gave none for: a local card stands in. */
export const NO_UPLOAD_FRAME_LABEL = '本地画面（没有上传图片）';

/** What the market stage records per picture, as a person reads it. */
const MARKET_PICTURE_ENGINES: Record<string, string | null> = {
  upload: '用户上传的图片',
  // The market type never asks the image service: a slot without the user's picture is a
  // local card whether a service is configured or not.
  'local-frame': NO_UPLOAD_FRAME_LABEL,
  // The end card is drawn locally by design: it says nothing about the pictures' provider.
  'end-card': null,
};

/** What the stages of a task recorded that the report names: engines and shots to fix. */
export interface RecordedEngines {
  providers: QualityReport['providers'];
  /** Shots whose picture fell back to the local frame after the image service failed. */
  fallbackShots: number[];
  /** Shots drawn by the local renderer because no image service was configured. */
  localShots: number[];
  /**
   * Shots without a picture of their own: recorded without one, or (market) a picture slot the
   * user gave no picture for, shown as a local card.
   */
  missingShots: number[];
  /** The offline espeak-ng voice spoke the narration or one speaker's lines. */
  offlineVoice: boolean;
  /** Shots meant to move whose clip failed: the still with pan and zoom stands in. */
  stillShots: number[];
  /** What the render asked of the paid services (QualityReport.calls). */
  calls: NonNullable<QualityReport['calls']>;
}

const sortedIndexes = (indexes: number[]) => [...new Set(indexes)].sort((a, b) => a - b);

/**
 * The engines the stages of this task recorded, and the shots whose picture is local or missing,
 * each shot read with the SDK's shotPicture (as the pages read a work's shots): fell back after a
 * provider error, drawn locally because no image service was configured, or no picture. A
 * picture kept from an earlier draw carries the engine that drew it; one drawn before engines
 * were recorded (KEPT_PICTURE_ENGINE) counts as local when no service is configured: nothing
 * else could have drawn it. Every pipeline names its stages script/shots/images/voice, with its
 * own fields.
 */
export function recordedEngines(
  outputs: Readonly<Record<string, StageOutputs>>,
  speech: Pick<Speech, 'findVoice'>,
  imagesConfigured = false,
): RecordedEngines {
  const script = outputs.script ?? {};
  const images = outputs.images ?? {};
  const voice = outputs.voice ?? {};

  // The text: the anime script's and storyboard's engines, the overseas translator, the
  // convert type's transcriber. None of them: the user's own text (null).
  const text = joined(
    strings([
      script.engine,
      outputs.shots?.engine,
      script.translatedBy,
      script.transcriptionEngine,
    ]),
  );

  const shotImages = Array.isArray(images.shotImages)
    ? (images.shotImages as Array<{
        index?: unknown;
        image?: unknown;
        engine?: unknown;
        needsRegeneration?: unknown;
      }>)
    : [];
  const marketEngines = Array.isArray(images.engines) ? (images.engines as unknown[]) : [];
  const pictures = joined(
    strings([
      ...shotImages.map((shot) => shot.engine),
      ...marketEngines.map((engine) =>
        typeof engine !== 'string'
          ? null
          : engine in MARKET_PICTURE_ENGINES
            ? MARKET_PICTURE_ENGINES[engine]
            : engine,
      ),
    ]),
  );
  const sources = shotImages.flatMap((shot) =>
    typeof shot.index === 'number'
      ? [
          {
            index: shot.index,
            source: shotPicture(
              {
                imageUrl: typeof shot.image === 'string' ? shot.image : '',
                needsRegeneration: shot.needsRegeneration === true,
                ...(typeof shot.engine === 'string' && shot.engine !== KEPT_PICTURE_ENGINE
                  ? { imageEngine: shot.engine }
                  : {}),
              },
              imagesConfigured,
            ),
          },
        ]
      : [],
  );
  const indexesOf = (source: ReturnType<typeof shotPicture>) =>
    sortedIndexes(sources.filter((shot) => shot.source === source).map((shot) => shot.index));
  const fallbackShots = indexesOf('fallback');
  const localShots = indexesOf('local');
  const missingShots = sortedIndexes([
    ...indexesOf('none'),
    ...marketEngines.flatMap((engine, i) => (engine === 'local-frame' ? [i] : [])),
  ]);

  // The voice: one engine for a narration; for a dialogue (anime, drama), each speaker's voice.
  let voiceEngines = strings([voice.engine]);
  const voices = script.voices;
  if (voiceEngines.length === 0 && voices && typeof voices === 'object') {
    voiceEngines = strings(
      Object.values(voices as Record<string, { voiceId?: unknown }>).map((v) =>
        typeof v?.voiceId === 'string' ? speech.findVoice(v.voiceId)?.engine : null,
      ),
    );
  }
  // The clips (kit/clips.ts): the service that made them, and the shots it failed.
  const clips = Array.isArray(outputs.clips?.clips)
    ? (outputs.clips.clips as Array<{ index?: unknown; engine?: unknown; error?: unknown }>)
    : [];
  const clipEngine = joined(strings(clips.map((clip) => clip.engine)));
  const stillShots = sortedIndexes(
    clips.flatMap((clip) =>
      typeof clip.index === 'number' && typeof clip.error === 'string' ? [clip.index] : [],
    ),
  );
  // What was asked of the paid services: a picture or a clip not kept from before (a failed
  // one was asked too), and the narration's seconds when a speech service spoke it.
  const localPicture = (engine: unknown) =>
    engine === LOCAL_FRAME_LABEL || engine === NO_UPLOAD_FRAME_LABEL;
  const asked = (
    items: Array<Record<string, unknown>>,
    isAsked: (item: Record<string, unknown>) => boolean,
  ) => items.filter((item) => item.kept !== true && isAsked(item)).length;
  const providerVoice = voiceEngines.some((engine) => engine !== ESPEAK_ENGINE);
  const calls = {
    pictures: asked(
      shotImages as Array<Record<string, unknown>>,
      (shot) =>
        typeof shot.error === 'string' ||
        (typeof shot.engine === 'string' &&
          !localPicture(shot.engine) &&
          shot.engine !== KEPT_PICTURE_ENGINE),
    ),
    clips: asked(
      clips as Array<Record<string, unknown>>,
      (clip) => typeof clip.engine === 'string',
    ),
    speechSeconds:
      providerVoice && typeof voice.durationMs === 'number'
        ? Math.round(voice.durationMs / 100) / 10
        : 0,
  };
  return {
    calls,
    providers: {
      text,
      pictures,
      voice: joined(voiceEngines),
      ...(clips.length > 0 ? { clips: clipEngine } : {}),
    },
    fallbackShots,
    localShots,
    missingShots,
    offlineVoice: voiceEngines.includes(ESPEAK_ENGINE),
    stillShots,
  };
}

/** What the report counts: a video's shots, a market video's pictures, a merge's segments. */
type ShotUnit = '分镜' | '图片' | '片段';

/** How they are counted: 第 2 镜, 第 2 张, 第 2 个片段; 全部 5 个分镜, 5 张图片, 5 个片段. */
const COUNTED: Record<ShotUnit, { one: string; all: string }> = {
  分镜: { one: '镜', all: '个分镜' },
  图片: { one: '张', all: '张图片' },
  片段: { one: '个片段', all: '个片段' },
};

/** 「第 1、2、3 镜」, or 「全部 5 个分镜」 when the list is every shot. */
function shotList(indexes: readonly number[], total: number | undefined, unit: ShotUnit): string {
  if (total !== undefined && total > 1 && indexes.length === total)
    return `全部 ${total} ${COUNTED[unit].all}`;
  const shown = indexes.slice(0, 12).map((i) => i + 1);
  return `第 ${shown.join('、')}${indexes.length > shown.length ? ' 等' : ''} ${COUNTED[unit].one}`;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export interface QualityReportInput {
  videoPath: string;
  /** The SRT written beside the video. */
  srtPath: string;
  /** The narration WAV the video was composed over. */
  narrationWav: string;
  aspect: Aspect;
  /** What the narration says (the voice stage's cues). */
  cues: ReadonlyArray<{ text: string }>;
  /**
   * Length the composition adds beyond the narration on purpose (an end card held after the
   * voice, a tail). Every type today composes exactly the narration's length: 0.
   */
  plannedTailMs?: number;
  providers: QualityReport['providers'];
  fallbackShots: number[];
  localShots?: number[];
  missingShots?: number[];
  offlineVoice?: boolean;
  /** Shots meant to move whose clip failed (recordedEngines). */
  stillShots?: number[];
  /** What the render asked of the paid services (recordedEngines). */
  calls?: QualityReport['calls'];
  /** How many shots (market: pictures) the video has, to say 「全部」 when all are local. */
  shotCount?: number;
  /** What the indexes count: shots, a market video's pictures, or a merge's segments. */
  shotUnit?: ShotUnit;
  /**
   * Whether an image service is configured now: local pictures then were drawn before it was,
   * and are redrawn rather than waiting for one.
   */
  imagesConfigured?: boolean;
}

/** Measures a finished video and names its problems (see QualityReport). */
export async function qualityReport(
  input: QualityReportInput,
  options: FfmpegOptions = {},
): Promise<QualityReport> {
  const [{ loudnessLufs, truePeakDbtp }, video, narration, srt] = await Promise.all([
    measureLoudnessAndPeak(input.videoPath, options),
    probeWithFfmpeg(input.videoPath, options),
    probeWithFfmpeg(input.narrationWav, options),
    readFile(input.srtPath, 'utf8'),
  ]);
  const durationMs = video.durationMs ?? 0;
  const narrationMs = narration.durationMs ?? 0;
  const tailMs = input.plannedTailMs ?? 0;
  const longCaptions = longCaptionLines(srt, input.aspect);
  const flaggedWords = [
    ...new Set(findFlaggedTerms(input.cues.map((cue) => cue.text).join('\n')).map((t) => t.word)),
  ];

  const problems: QualityReport['problems'] = [];
  if (Math.abs(loudnessLufs - TARGET_LUFS) > LOUDNESS_TOLERANCE_LU) {
    problems.push({
      kind: 'loudness',
      message: `响度 ${loudnessLufs.toFixed(1)} LUFS，偏离目标 ${TARGET_LUFS} LUFS`,
    });
  }
  if (truePeakDbtp > MAX_TRUE_PEAK_DBTP) {
    problems.push({
      kind: 'truePeak',
      message: `真峰值 ${truePeakDbtp.toFixed(1)} dBTP，高于 ${MAX_TRUE_PEAK_DBTP} dBTP，平台转码后可能爆音`,
    });
  }
  const expectedMs = narrationMs + tailMs;
  if (Math.abs(durationMs - expectedMs) > DURATION_TOLERANCE_MS) {
    const tail = tailMs > 0 ? `（含片尾 ${seconds(tailMs)} 秒）` : '';
    problems.push({
      kind: 'duration',
      message:
        durationMs < expectedMs
          ? `成片时长 ${seconds(durationMs)} 秒，比配音 ${seconds(narrationMs)} 秒${tail}短 ${seconds(expectedMs - durationMs)} 秒，结尾的配音被截掉了`
          : `成片时长 ${seconds(durationMs)} 秒，比配音 ${seconds(narrationMs)} 秒${tail}长 ${seconds(durationMs - expectedMs)} 秒，结尾没有声音`,
    });
  }
  const unit = input.shotUnit ?? '分镜';
  const localShots = input.localShots ?? [];
  const missingShots = input.missingShots ?? [];
  if (localShots.length > 0) {
    const shots = shotList(localShots, input.shotCount, unit);
    problems.push(
      input.imagesConfigured
        ? {
            kind: 'localPictures',
            message: `${shots}是本地画面（绘制时未配置图像服务）：只有文字排版，不是生成的插画，现在可以重新生成画面`,
            action: 'regeneratePictures',
          }
        : {
            kind: 'localPictures',
            message: `${shots}是本地画面（未配置图像服务）：只有文字排版，不是生成的插画，配置图像服务后重新生成`,
            action: 'configureImages',
          },
    );
  }
  if (input.fallbackShots.length > 0) {
    problems.push({
      kind: 'fallbackShots',
      message: `第 ${input.fallbackShots.map((i) => i + 1).join('、')} 镜使用了本地画面（图像服务出错），可重新生成画面`,
      action: 'regeneratePictures',
    });
  }
  const stillShots = input.stillShots ?? [];
  if (stillShots.length > 0) {
    problems.push({
      kind: 'stillShots',
      message: `${shotList(stillShots, input.shotCount, unit)}的动态镜头没有生成成功（视频服务出错），用静态画面加推拉代替，可重新生成动态镜头`,
      action: 'regenerateClips',
    });
  }
  if (missingShots.length > 0) {
    // A market video's pictures are the user's uploads: a slot without one is filled by
    // uploading, not by an image service.
    const fix = unit === '图片' ? '上传图片后重新生成' : '可重新生成画面';
    problems.push({
      kind: 'missingPictures',
      message: `${shotList(missingShots, input.shotCount, unit)}没有自己的画面，用本地画面代替：只有文字排版，${fix}`,
      action: 'regeneratePictures',
    });
  }
  if (input.offlineVoice) {
    problems.push({
      kind: 'offlineVoice',
      message: `配音由离线引擎 ${ESPEAK_ENGINE} 合成：声音机械，不适合直接发布，配置语音服务后重新生成`,
      action: 'configureVoice',
    });
  }
  if (longCaptions.length > 0) {
    const shown = longCaptions
      .slice(0, 3)
      .map((line) => `「${line.text}」（${line.chars} 字，上限 ${line.limit}）`)
      .join('、');
    problems.push({
      kind: 'longCaptions',
      message: `${longCaptions.length} 行字幕过长，手机上会换行或出屏：${shown}${longCaptions.length > 3 ? ' 等' : ''}`,
    });
  }
  if (flaggedWords.length > 0) {
    problems.push({
      kind: 'flaggedWords',
      message: `配音文案中有平台可能限流的词：${flaggedWords.map((w) => `「${w}」`).join('、')}`,
    });
  }

  return {
    loudnessLufs: Math.round(loudnessLufs * 10) / 10,
    truePeakDbtp: Math.round(truePeakDbtp * 10) / 10,
    durationMs,
    narrationMs,
    fallbackShots: input.fallbackShots,
    localShots,
    missingShots,
    ...(input.stillShots ? { stillShots: input.stillShots } : {}),
    ...(input.calls ? { calls: input.calls } : {}),
    offlineVoice: input.offlineVoice ?? false,
    longCaptions,
    flaggedWords,
    providers: input.providers,
    problems,
  };
}

/**
 * The outputs a compose stage ends with: the video's URLs (videoOutputs) and its quality
 * report, which get_work_result answers and get_works counts. Every type's compose calls this.
 */
export async function finishedVideoOutputs(
  options: MediaPipelineOptions,
  ctx: StageContext,
  result: ComposeResult,
  video: {
    aspect: Aspect;
    /** The narration WAV, relative to the media dir (as the voice stages store it). */
    narration: string;
    cues: ReadonlyArray<{ text: string }>;
    plannedTailMs?: number;
    /**
     * A compose that chooses its own pictures (a merge: each segment's picture, material or a
     * local card) says which of its segments had no picture of their own, out of how many.
     */
    segments?: { missing: number[]; count: number };
  },
): Promise<FinishedVideoOutput> {
  const imagesConfigured = options.providers.images !== null;
  const recorded = recordedEngines(ctx.outputs, options.providers.speech, imagesConfigured);
  const images = ctx.outputs.images ?? {};
  const shotCount = video.segments
    ? video.segments.count
    : Array.isArray(images.shotImages)
      ? images.shotImages.length
      : Array.isArray(images.engines)
        ? images.engines.length
        : undefined;
  const report = await qualityReport({
    videoPath: result.videoPath,
    srtPath: result.srtPath,
    narrationWav: taskFiles(options, ctx).abs(video.narration),
    aspect: video.aspect,
    cues: video.cues,
    ...(video.plannedTailMs !== undefined ? { plannedTailMs: video.plannedTailMs } : {}),
    ...recorded,
    ...(video.segments
      ? {
          missingShots: sortedIndexes([...recorded.missingShots, ...video.segments.missing]),
          shotUnit: '片段' as const,
        }
      : Array.isArray(images.engines)
        ? { shotUnit: '图片' as const }
        : {}),
    ...(shotCount !== undefined ? { shotCount } : {}),
    imagesConfigured,
  });
  return { ...videoOutputs(options, result), report };
}
