import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { WorkResult } from '@kol/shared-sdk/contracts';
import { measureLoudness, runFfmpeg, serverRequire } from '../../src/video/engine/ffmpeg';
import { testDataDir } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import type { Client } from '../writing/helpers';

/**
 * The facts every video type must prove (issue 7): ffprobe's size, 30 fps, H.264 + AAC,
 * duration matching the narration within half a second, an SRT whose cues cover the speech,
 * integrated loudness within 1 LU of -16 LUFS, and a cover. Per-type tests call these.
 */
const run = promisify(execFile);
const ffprobePath = (serverRequire()('@ffprobe-installer/ffprobe') as { path: string }).path;

export interface Probe {
  streams: Array<{
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    r_frame_rate?: string;
    pix_fmt?: string;
  }>;
  format: { duration: string };
}

export async function ffprobe(file: string): Promise<Probe> {
  const { stdout } = await run(ffprobePath, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

/** The small render every video test uses: seconds per video instead of minutes. */
export const TEST_RENDER = { width: 216, height: 384 } as const;

/**
 * The app config of a test that renders videos: tasks worked in this process, one at a time,
 * polled often, at the small size. `dir` names the task folder (one per app in a file).
 */
export function renderingTasks(dir = 'tasks') {
  return {
    workInProcess: true,
    concurrency: 1,
    workDir: path.join(testDataDir(), dir),
    pollingIntervalSeconds: 0.5,
    renderSize: { ...TEST_RENDER },
  };
}

/** A `/media/...` URL of a result to its file under the app's media dir. */
export const mediaFile = (app: FastifyInstance, url: string): string =>
  path.join(
    app.config.mediaDir,
    ...url
      .replace(/^\/media\//, '')
      .split('/')
      .map(decodeURIComponent),
  );

/** Polls get_work_result until the task ends; a failure or cancel throws with its message. */
export async function finishedWork(
  client: Client,
  workId: number,
  taskId?: string,
  timeoutMs = 150_000,
): Promise<WorkResult> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    if (taskId && data.taskId !== taskId) return null;
    if (data.state === 'failed' || data.state === 'cancelled') {
      throw new Error(`task ended ${data.state}: ${String(data.error)}`);
    }
    return data.state === 'succeeded' ? data : null;
  }, timeoutMs);
}

interface SrtCue {
  startMs: number;
  endMs: number;
  text: string;
}

export function parseSrt(srt: string): SrtCue[] {
  const time = (t: string) => {
    const m = /(\d+):(\d+):(\d+),(\d+)/.exec(t);
    if (!m) throw new Error(`bad SRT time ${t}`);
    return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
  };
  return srt
    .replace(/\r/g, '')
    .trim()
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n');
      const [start = '', end = ''] = (lines[1] ?? '').split(' --> ');
      return { startMs: time(start), endMs: time(end), text: lines.slice(2).join('') };
    });
}

/**
 * Checks the finished video of a result. `speechMs`: the narration's length when the test
 * knows it (the video must match it within 500 ms); `spoken`: texts the SRT must contain.
 */
export async function expectProvenVideo(
  app: FastifyInstance,
  result: WorkResult,
  expected: {
    width: number;
    height: number;
    speechMs?: number;
    spoken?: string[];
    /** Only when the test measured no narration: the least the video must last. */
    minDurationMs?: number;
  },
): Promise<{ durationMs: number; cues: SrtCue[] }> {
  const video = mediaFile(app, result.videoUrl);
  const probe = await ffprobe(video);
  const v = probe.streams.find((s) => s.codec_type === 'video');
  const a = probe.streams.find((s) => s.codec_type === 'audio');
  expect(v?.codec_name).toBe('h264');
  expect(v?.pix_fmt).toBe('yuv420p');
  expect([v?.width, v?.height]).toEqual([expected.width, expected.height]);
  expect(v?.r_frame_rate).toBe('30/1');
  expect(a?.codec_name).toBe('aac');
  const durationMs = Number(probe.format.duration) * 1000;
  if (expected.speechMs !== undefined) {
    expect(Math.abs(durationMs - expected.speechMs)).toBeLessThan(500);
  }
  if (expected.minDurationMs !== undefined) {
    expect(durationMs).toBeGreaterThanOrEqual(expected.minDurationMs);
  }

  const { readFile } = await import('node:fs/promises');
  const srt = await readFile(mediaFile(app, result.srtUrl), 'utf8');
  const cues = parseSrt(srt);
  expect(cues.length).toBeGreaterThan(0);
  for (const text of expected.spoken ?? [])
    expect(cues.map((c) => c.text).join('')).toContain(text);
  // The cues cover the speech: in order, inside the video, from its start to near its end.
  for (const [i, cue] of cues.entries()) {
    expect(cue.endMs).toBeGreaterThan(cue.startMs);
    if (i > 0) expect(cue.startMs).toBeGreaterThanOrEqual(cues[i - 1]?.endMs ?? 0);
  }
  expect(cues[0]?.startMs ?? Infinity).toBeLessThan(1500);
  expect(cues.at(-1)?.endMs ?? 0).toBeLessThanOrEqual(durationMs + 100);
  expect(cues.at(-1)?.endMs ?? 0).toBeGreaterThan(durationMs - 2500);

  expect(Math.abs((await measureLoudness(video)) + 16)).toBeLessThanOrEqual(1);
  // Every finished video carries its quality report, measured on this very file, and a video
  // made by the compose has none of the loudness, peak and length problems.
  const report = result.report;
  expect(report).toEqual(expect.objectContaining({ problems: expect.any(Array) }));
  expect(Math.abs((report?.durationMs ?? 0) - durationMs)).toBeLessThanOrEqual(100);
  expect(Math.abs((report?.loudnessLufs ?? 0) + 16)).toBeLessThanOrEqual(1);
  expect(report?.problems.map((p) => p.kind)).not.toEqual(
    expect.arrayContaining([expect.stringMatching(/^(loudness|truePeak|duration)$/)]),
  );
  const { stat } = await import('node:fs/promises');
  expect((await stat(mediaFile(app, result.coverUrl))).size).toBeGreaterThan(500);
  return { durationMs, cues };
}

/**
 * The length a page showed before the render (the SDK's estimate for the work's inputs) holds
 * within 10 % of the video made (issue 30): `estimateMs` from the same function the page calls.
 */
export function expectEstimateHolds(estimateMs: number, videoMs: number): void {
  expect(estimateMs).toBeGreaterThan(0);
  expect(Math.abs(estimateMs - videoMs) / videoMs).toBeLessThan(0.1);
}

/** The size frames are compared at: small enough to ignore encoding noise, 9:16 like TEST_RENDER. */
const FRAME_PROBE = { width: 54, height: 96 } as const;

/**
 * A frame of a video at `ms` as small grey pixels (one byte each), after `filters` (say, the
 * cover crop a source gets in a render). For comparing what two videos show at a moment.
 */
export async function greyFrame(file: string, ms: number, filters: string[] = []): Promise<Buffer> {
  const out = path.join(testDataDir(), `frame-${Math.random().toString(16).slice(2)}.gray`);
  await runFfmpeg([
    ...['-ss', (ms / 1000).toFixed(3), '-i', file, '-frames:v', '1'],
    ...[
      '-vf',
      [...filters, `scale=${FRAME_PROBE.width}:${FRAME_PROBE.height}`, 'format=gray'].join(','),
    ],
    ...['-f', 'rawvideo', out],
  ]);
  const { readFile } = await import('node:fs/promises');
  const frame = await readFile(out);
  expect(frame.length).toBe(FRAME_PROBE.width * FRAME_PROBE.height);
  return frame;
}

/** How a source is fitted into a render of `size` (compose-segments: cover, then crop). */
export const coverFilters = (size: { width: number; height: number }): string[] => [
  `scale=${size.width}:${size.height}:force_original_aspect_ratio=increase`,
  `crop=${size.width}:${size.height}`,
];

/** The mean absolute difference of two grey frames (0: the same picture, 255: opposite). */
export const frameDistance = (a: Buffer, b: Buffer): number =>
  a.reduce((sum, value, i) => sum + Math.abs(value - (b[i] ?? 0)), 0) / a.length;

/**
 * The report of a video made offline tells the truth (issue 30): the offline voice is named
 * with 配置语音服务, every picture the local renderer drew (`localPictures`: how many, all of
 * them; 0 for a type that draws none) with 配置图像服务, and every shot shown without a picture
 * of its own (`missingPictures`, the first ones: a market slot without an upload) with 重新生成画面.
 * Never 未发现问题.
 */
export function expectOfflineReport(
  result: WorkResult,
  localPictures: number,
  missingPictures = 0,
): void {
  const report = result.report;
  if (!report) throw new Error('the finished video has no report');
  expect(report.offlineVoice).toBe(true);
  expect(report.problems).toContainEqual(
    expect.objectContaining({ kind: 'offlineVoice', action: 'configureVoice' }),
  );
  expect(report.localShots).toEqual(Array.from({ length: localPictures }, (_, i) => i));
  const local = report.problems.filter((p) => p.kind === 'localPictures');
  if (localPictures === 0) {
    expect(local).toEqual([]);
  } else {
    expect(local).toEqual([
      expect.objectContaining({
        action: 'configureImages',
        message: expect.stringContaining('本地画面（未配置图像服务）'),
      }),
    ]);
  }
  expect(report.missingShots).toEqual(Array.from({ length: missingPictures }, (_, i) => i));
  const missing = report.problems.filter((p) => p.kind === 'missingPictures');
  expect(missing).toEqual(
    missingPictures === 0
      ? []
      : [
          expect.objectContaining({
            action: 'regeneratePictures',
            message: expect.stringContaining('没有自己的画面'),
          }),
        ],
  );
}
