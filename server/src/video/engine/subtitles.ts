import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  FfmpegError,
  ffmpegToFile,
  probeWithFfmpeg,
  runFfmpeg,
  type FfmpegOptions,
} from './ffmpeg';

/**
 * The script of an uploaded video from its own subtitle track: the first text track (SubRip,
 * mov_text, ASS, WebVTT) converted to SRT by ffmpeg, then to plain lines.
 */

/** Subtitle codecs ffmpeg can turn into SRT; picture subtitles (DVD, PGS) cannot be read. */
const TEXT_SUBTITLE_CODECS = new Set(['subrip', 'srt', 'mov_text', 'ass', 'ssa', 'webvtt', 'text']);

/** The index of the first text subtitle stream, from `ffmpeg -i`'s stream list; null: none. */
export async function textSubtitleStream(
  videoPath: string,
  options: FfmpegOptions = {},
): Promise<number | null> {
  let stderr: string;
  try {
    stderr = await runFfmpeg(['-i', videoPath], options);
  } catch (error) {
    // `ffmpeg -i` with no output always exits 1; its stream list is on stderr all the same.
    if (!(error instanceof FfmpegError) || error.exitCode === null) throw error;
    stderr = error.stderr;
  }
  for (const match of stderr.matchAll(/Stream #0:(\d+)[^:\n]*: Subtitle: (\w+)/g)) {
    if (TEXT_SUBTITLE_CODECS.has(match[2] ?? '')) return Number(match[1]);
  }
  return null;
}

export interface SubtitleCue {
  text: string;
  startMs: number;
  endMs: number;
}

const srtTime = (t: string): number => {
  const m = /(\d+):(\d{2}):(\d{2})[,.](\d{1,3})/.exec(t);
  if (!m) return NaN;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
};

/** Cue text as spoken: no markup (`<i>`, `{\an8}`), lines of one cue joined. */
function plainCueText(lines: string[]): string {
  const parts = lines
    .map((line) =>
      line
        .replace(/<[^>]*>/g, '')
        .replace(/\{[^}]*\}/g, '')
        .replace(/\\[Nn]/g, ' ')
        .trim(),
    )
    .filter(Boolean);
  // CJK lines join without a space; Latin words across a line break keep one.
  return parts.reduce(
    (text, part) =>
      text && /[A-Za-z0-9]$/.test(text) && /^[A-Za-z0-9]/.test(part)
        ? `${text} ${part}`
        : text + part,
    '',
  );
}

export function parseSrtCues(srt: string): SubtitleCue[] {
  const cues: SubtitleCue[] = [];
  for (const block of srt
    .replace(/^\uFEFF/, '')
    .replace(/\r/g, '')
    .split(/\n\s*\n/)) {
    const lines = block.split('\n');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    const [start = '', end = ''] = (lines[timing] ?? '').split('-->');
    const text = plainCueText(lines.slice(timing + 1));
    const startMs = srtTime(start);
    const endMs = srtTime(end);
    if (!text || !Number.isFinite(startMs) || !Number.isFinite(endMs)) continue;
    cues.push({ text, startMs, endMs });
  }
  return cues.sort((a, b) => a.startMs - b.startMs);
}

/**
 * The script of cues: one cue per line, in order, a cue that repeats the one before (rolling
 * captions) dropped. Lines are sentence breaks for the narration (captions.ts splits at them).
 */
export function scriptOfCues(cues: Array<{ text: string }>): string {
  const lines: string[] = [];
  for (const cue of cues) {
    const text = cue.text.trim();
    if (text && text !== lines.at(-1)) lines.push(text);
  }
  return lines.join('\n');
}

/**
 * The cues of the video's first text subtitle track, or null when it has none. `workDir` holds
 * the converted SRT while it is read.
 */
export async function extractSubtitleCues(
  videoPath: string,
  workDir: string,
  options: FfmpegOptions = {},
): Promise<SubtitleCue[] | null> {
  const stream = await textSubtitleStream(videoPath, options);
  if (stream === null) return null;
  const srtPath = path.join(workDir, 'source-subtitles.srt');
  try {
    await ffmpegToFile(
      ['-i', videoPath, '-map', `0:${stream}`, '-c:s', 'srt', '-f', 'srt'],
      srtPath,
      options,
    );
    return parseSrtCues(await readFile(srtPath, 'utf8'));
  } catch (error) {
    // An empty track writes nothing: that is a track with no words, not a failure.
    if (error instanceof FfmpegError && error.exitCode === 0) return [];
    throw error;
  } finally {
    await rm(srtPath, { force: true });
  }
}

/**
 * The speech of a video as a small mono MP3 (16 kHz, 32 kb/s: 10 minutes is 2.4 MB, well
 * under the 25 MB OpenAI accepts). False when the video has no sound at all.
 */
export async function extractSpeechAudio(
  videoPath: string,
  outPath: string,
  options: FfmpegOptions = {},
): Promise<boolean> {
  const info = await probeWithFfmpeg(videoPath, options);
  if (!info.audio) return false;
  await ffmpegToFile(
    [
      '-i',
      videoPath,
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '32k',
    ],
    outPath,
    options,
  );
  return true;
}

/** A transcript's script: one segment per line (pauses are sentence breaks), else the text. */
export function scriptOfTranscript(transcript: {
  text: string;
  segments: Array<{ text: string; startMs: number; endMs: number }>;
}): string {
  return transcript.segments.length > 0 ? scriptOfCues(transcript.segments) : transcript.text;
}
