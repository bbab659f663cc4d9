import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  DedupRangeError,
  dedupFilters,
  loopSegments,
  sourceWindow,
} from '../../../src/video/engine/dedup';
import { parseSrtCues, scriptOfCues } from '../../../src/video/engine/subtitles';
import { probeWithFfmpeg, runFfmpeg } from '../../../src/video/engine/ffmpeg';

jest.setTimeout(60_000);

const SIZE = { width: 216, height: 384 };

describe('dedupFilters', () => {
  it('gives no filter for the defaults and for neutral values', () => {
    expect(dedupFilters({}, SIZE)).toEqual([]);
    expect(
      dedupFilters(
        {
          mirror: false,
          cropZoom: 0,
          speed: 1,
          colorShift: 0,
          frameRate: 30,
          trimHeadMs: 0,
          trimTailMs: 0,
          overlay: false,
        },
        SIZE,
      ),
    ).toEqual([]);
    // 60 fps cannot show in a 30 fps output: nothing to do either.
    expect(dedupFilters({ frameRate: 60 }, SIZE)).toEqual([]);
  });

  it('gives each preset its filter', () => {
    expect(dedupFilters({ mirror: true }, SIZE)).toEqual(['hflip']);
    expect(dedupFilters({ cropZoom: 0.1 }, SIZE)).toEqual([
      'crop=trunc(iw*0.8/2)*2:trunc(ih*0.8/2)*2',
      'scale=216:384',
      'setsar=1',
    ]);
    expect(dedupFilters({ speed: 1.25 }, SIZE)).toEqual(['setpts=(PTS-STARTPTS)/1.25', 'fps=30']);
    expect(dedupFilters({ speed: 0.8 }, SIZE)).toEqual(['setpts=(PTS-STARTPTS)/0.8', 'fps=30']);
    expect(dedupFilters({ colorShift: 15 }, SIZE)).toEqual(['hue=h=15:s=1.05:b=0.15']);
    expect(dedupFilters({ colorShift: -30 }, SIZE)).toEqual(['hue=h=-30:s=1.1:b=-0.3']);
    // Dropped to 24 frames a second, then repeated back to the 30 fps of every output.
    expect(dedupFilters({ frameRate: 24 }, SIZE)).toEqual(['fps=24', 'fps=30']);
    expect(dedupFilters({ frameRate: 25 }, SIZE)).toEqual(['fps=25', 'fps=30']);
    expect(dedupFilters({ overlay: true }, SIZE)).toEqual([
      'drawbox=x=0:y=0:w=iw:h=ih:color=white@0.06:t=fill',
    ]);
    // Trimming chooses the source window, not a filter.
    expect(dedupFilters({ trimHeadMs: 2000, trimTailMs: 1000 }, SIZE)).toEqual([]);
  });

  it('puts time first, the picture after, and one fps=30 last', () => {
    expect(
      dedupFilters(
        { mirror: true, speed: 1.1, frameRate: 24, cropZoom: 0.05, overlay: true },
        SIZE,
      ),
    ).toEqual([
      'setpts=(PTS-STARTPTS)/1.1',
      'fps=24',
      'crop=trunc(iw*0.9/2)*2:trunc(ih*0.9/2)*2',
      'scale=216:384',
      'setsar=1',
      'hflip',
      'drawbox=x=0:y=0:w=iw:h=ih:color=white@0.06:t=fill',
      'fps=30',
    ]);
  });

  it('refuses values out of the contract’s ranges, naming the preset', () => {
    const refused = (presets: object) => {
      try {
        dedupFilters(presets, SIZE);
      } catch (error) {
        expect(error).toBeInstanceOf(DedupRangeError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(presets)}`);
    };
    expect(refused({ cropZoom: 0.3 })).toBe('「裁剪放大」应在 0 到 0.2 之间，当前为 0.3');
    expect(refused({ speed: 2 })).toBe('「变速」应在 0.8 到 1.25 之间，当前为 2');
    expect(refused({ speed: 0.5 })).toBe('「变速」应在 0.8 到 1.25 之间，当前为 0.5');
    expect(refused({ colorShift: 45 })).toBe('「调色」应在 -30 到 30 之间，当前为 45');
    expect(refused({ trimHeadMs: -1 })).toBe('「去片头」应在 0 到 30000 之间，当前为 -1');
    expect(refused({ trimTailMs: 40_000 })).toBe('「去片尾」应在 0 到 30000 之间，当前为 40000');
    expect(refused({ frameRate: 48 })).toBe('「帧率」只能是 24、25、30、60，当前为 48');
    expect(refused({ speed: Number.NaN })).toContain('「变速」');
  });
});

describe('sourceWindow and loopSegments', () => {
  it('cuts the trimmed head and tail, and refuses when too little is left', () => {
    expect(sourceWindow({}, 8000)).toEqual({ startMs: 0, endMs: 8000 });
    expect(sourceWindow({ trimHeadMs: 1500, trimTailMs: 500 }, 8000)).toEqual({
      startMs: 1500,
      endMs: 7500,
    });
    expect(() => sourceWindow({ trimHeadMs: 3000, trimTailMs: 2500 }, 6000)).toThrow(
      '去掉片头 3 秒和片尾 2.5 秒后，原视频（6.0 秒）剩余不足 1 秒，请减少「去片头」或「去片尾」',
    );
  });

  it('loops the window to the narration, one pass per segment, the last one cut', () => {
    const window = { startMs: 1000, endMs: 5000 };
    expect(loopSegments(window, 1, 3000)).toEqual([{ ...window, durationMs: 3000 }]);
    expect(loopSegments(window, 1, 9000)).toEqual([
      { ...window, durationMs: 4000 },
      { ...window, durationMs: 4000 },
      { ...window, durationMs: 1000 },
    ]);
    // Faster playback uses the window up sooner: 4 s of source last 3.2 s at 1.25x.
    const fast = loopSegments(window, 1.25, 7000);
    expect(fast.map((s) => s.durationMs)).toEqual([3200, 3200, 600]);
    const total = (list: Array<{ durationMs: number }>) =>
      list.reduce((sum, s) => sum + s.durationMs, 0);
    expect(total(fast)).toBe(7000);
    expect(total(loopSegments(window, 0.8, 12_345))).toBe(12_345);
  });
});

describe('subtitle scripts', () => {
  it('reads SRT cues without markup, one line per cue, rolling repeats dropped', () => {
    const cues = parseSrtCues(
      '\uFEFF1\r\n00:00:00,500 --> 00:00:02,000\r\n<i>今天</i>天气\r\n很好\r\n\r\n' +
        '2\n00:00:02,000 --> 00:00:03,000\n{\\an8}今天天气很好\n\n' +
        '3\n00:00:03,500 --> 00:00:05,000\nWe went\nto the park\n',
    );
    expect(cues).toEqual([
      { text: '今天天气很好', startMs: 500, endMs: 2000 },
      { text: '今天天气很好', startMs: 2000, endMs: 3000 },
      { text: 'We went to the park', startMs: 3500, endMs: 5000 },
    ]);
    expect(scriptOfCues(cues)).toBe('今天天气很好\nWe went to the park');
  });
});

describe('the chain in real ffmpeg', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kol-dedup-'));
    // A frame that is white on its left quarter and black elsewhere: a mirror moves the white.
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'color=c=black:s=64x32:r=30:d=1'],
      ...['-vf', 'drawbox=x=0:y=0:w=16:h=32:color=white:t=fill', '-c:v', 'libx264'],
      ...['-pix_fmt', 'yuv420p', '-crf', '0', path.join(dir, 'source.mp4')],
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Luma of the first frame of `file` after `filters`, as rows of 64 values. */
  async function firstFrameLuma(filters: string[]): Promise<number[][]> {
    const out = path.join(dir, `frame-${Math.random().toString(16).slice(2)}.gray`);
    await runFfmpeg([
      ...['-i', path.join(dir, 'source.mp4')],
      ...(filters.length > 0 ? ['-vf', filters.join(',')] : []),
      ...['-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', out],
    ]);
    const bytes = await readFile(out);
    expect(bytes.length).toBe(64 * 32);
    return Array.from({ length: 32 }, (_, y) => Array.from(bytes.subarray(y * 64, y * 64 + 64)));
  }
  const column = (rows: number[][], x: number) => rows.map((row) => row[x] ?? -1);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

  it('mirror really mirrors: the white left edge moves to the right edge', async () => {
    const before = await firstFrameLuma([]);
    const after = await firstFrameLuma(dedupFilters({ mirror: true }, { width: 64, height: 32 }));
    expect(mean(column(before, 2))).toBeGreaterThan(200);
    expect(mean(column(before, 61))).toBeLessThan(40);
    expect(mean(column(after, 2))).toBeLessThan(40);
    expect(mean(column(after, 61))).toBeGreaterThan(200);
    // Every column is the mirror image of the source's.
    for (let x = 0; x < 64; x++) {
      expect(Math.abs(mean(column(after, x)) - mean(column(before, 63 - x)))).toBeLessThan(8);
    }
  });

  it('runs every preset at once, keeping the size and 30 fps', async () => {
    const filters = dedupFilters(
      { mirror: true, cropZoom: 0.1, speed: 1.2, colorShift: 20, frameRate: 24, overlay: true },
      { width: 64, height: 32 },
    );
    const out = path.join(dir, 'all.mp4');
    await runFfmpeg([
      ...['-i', path.join(dir, 'source.mp4'), '-vf', filters.join(',')],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', out],
    ]);
    const info = await probeWithFfmpeg(out);
    expect(info.video).toMatchObject({ width: 64, height: 32, fps: 30 });
    // (The length is not checked here: ffmpeg 4.1's fps filter pads to the source's end
    // time; in a video each segment is cut to its frame count, see loopSegments.)
  });
});
