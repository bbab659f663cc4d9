import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_TRUE_PEAK_DBTP, type QualityReport } from '@kol/shared-sdk/contracts';
import { findFlaggedTerms } from '../../library/vocabulary';
import type { StageContext, StageOutputs } from '../../../tasks/types';
import { lineLimit, lineWidth } from '../../engine/caption-lines';
import type { Aspect } from '../../engine/captions';
import { TARGET_LUFS, type ComposeResult } from '../../engine/compose';
import { probeWithFfmpeg, runFfmpeg, type FfmpegOptions } from '../../engine/ffmpeg';
import { LOCAL_FRAME_LABEL } from '../../engine/frames/render-frame';
import type { FinishedVideoOutput } from './outputs';
import { taskFiles, videoOutputs, type MediaPipelineOptions } from './pipeline';
import type { Speech } from '../../../providers/speech';

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

/** What the market stage records per picture, as a person reads it. */
const MARKET_PICTURE_ENGINES: Record<string, string | null> = {
  upload: '用户上传的图片',
  'local-frame': LOCAL_FRAME_LABEL,
  // The end card is drawn locally by design: it says nothing about the pictures' provider.
  'end-card': null,
};

/**
 * The engines the stages of this task recorded, and the shots whose picture fell back to the
 * local frame. Every pipeline names its stages script/shots/images/voice, with its own fields.
 */
export function recordedEngines(
  outputs: Readonly<Record<string, StageOutputs>>,
  speech: Pick<Speech, 'findVoice'>,
): { providers: QualityReport['providers']; fallbackShots: number[] } {
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
        engine?: unknown;
        needsRegeneration?: unknown;
      }>)
    : [];
  const marketEngines = Array.isArray(images.engines) ? (images.engines as unknown[]) : [];
  const pictures = joined(
    strings([
      ...shotImages.map((shot) => shot.engine),
      ...marketEngines.map((engine) =>
        typeof engine === 'string' ? (MARKET_PICTURE_ENGINES[engine] ?? engine) : null,
      ),
    ]),
  );
  const fallbackShots = shotImages
    .filter((shot) => shot.needsRegeneration === true && typeof shot.index === 'number')
    .map((shot) => shot.index as number)
    .sort((a, b) => a - b);

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
  return { providers: { text, pictures, voice: joined(voiceEngines) }, fallbackShots };
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
  if (input.fallbackShots.length > 0) {
    problems.push({
      kind: 'fallbackShots',
      message: `第 ${input.fallbackShots.map((i) => i + 1).join('、')} 镜使用了本地画面（图像服务出错），可重新生成画面`,
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
  },
): Promise<FinishedVideoOutput> {
  const { providers, fallbackShots } = recordedEngines(ctx.outputs, options.providers.speech);
  const report = await qualityReport({
    videoPath: result.videoPath,
    srtPath: result.srtPath,
    narrationWav: taskFiles(options, ctx).abs(video.narration),
    aspect: video.aspect,
    cues: video.cues,
    ...(video.plannedTailMs !== undefined ? { plannedTailMs: video.plannedTailMs } : {}),
    providers,
    fallbackShots,
  });
  return { ...videoOutputs(options, result), report };
}
