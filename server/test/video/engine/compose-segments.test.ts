import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeCaptions } from '../../../src/video/engine/captions';
import { composeSegments } from '../../../src/video/engine/compose-segments';
import { ffmpegToFile, measureLoudness } from '../../../src/video/engine/ffmpeg';
import { renderFrameToFile } from '../../../src/video/engine/frames/render-frame';
import { AMBIENT_TRACKS, ensureAmbientTrack } from '../../../src/video/library/music/ambient';
import { synthesizeSentences } from '../../../src/providers/speech/espeak';
import { ffprobe, parseSrt } from '../proof';

jest.setTimeout(120_000);

const size = { width: 216, height: 384 };
let dir: string;
let clip: string;
let image: string;
let narration: Awaited<ReturnType<typeof synthesizeSentences>>;
let captions: { srtPath: string; assPath: string };

/** The mean RGB of a frame's top strip (above the captions) at `seconds`. */
async function colourAt(video: string, seconds: number): Promise<[number, number, number]> {
  const out = path.join(dir, `px-${seconds}-${path.basename(video)}.rgb`);
  await ffmpegToFile(
    [
      '-ss',
      String(seconds),
      '-i',
      video,
      '-frames:v',
      '1',
      '-vf',
      `crop=${size.width}:40:0:0,scale=1:1`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
    ],
    out,
  );
  const [r = 0, g = 0, b = 0] = await readFile(out);
  return [r, g, b];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-segments-'));
  // A 2 s clip: blue for the first second, red for the second one.
  clip = path.join(dir, 'clip.mp4');
  await ffmpegToFile(
    [
      '-f',
      'lavfi',
      '-i',
      'color=c=blue:s=320x240:r=25:d=1',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=320x240:r=25:d=1',
      '-filter_complex',
      '[0:v][1:v]concat=n=2:v=1[v]',
      '-map',
      '[v]',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
    ],
    clip,
  );
  image = await renderFrameToFile({ scene: '安静的湖面', ...size }, path.join(dir, 'still.jpg'));
  narration = await synthesizeSentences(
    ['第一段是一段视频。', '第二段是一张图片。'],
    path.join(dir, 'narration.wav'),
  );
  captions = { srtPath: path.join(dir, 'in.srt'), assPath: path.join(dir, 'in.ass') };
  await writeCaptions(narration.segments, captions, size, '9:16');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('composeSegments', () => {
  it('loops a window of a video, moves a still, mixes to -16 LUFS', async () => {
    const split = narration.segments[1]?.startMs ?? 0;
    const music = await ensureAmbientTrack(path.join(dir, 'music'), AMBIENT_TRACKS[0]?.id ?? '');
    const progress: number[] = [];
    const result = await composeSegments(
      {
        aspect: '9:16',
        segments: [
          // The red second only, repeated: a loop of the whole file would show blue again.
          {
            media: { kind: 'video', path: clip, startMs: 1000, endMs: 2000, loop: true },
            durationMs: split,
          },
          { media: { kind: 'image', path: image }, durationMs: narration.durationMs - split },
        ],
        narrationWav: narration.wavPath,
        musicPath: music,
        ...captions,
      },
      path.join(dir, 'out'),
      { size, concurrency: 2, name: 'segments', onProgress: (d) => progress.push(d) },
    );
    expect(split).toBeGreaterThan(1200);
    expect(progress.at(-1)).toBe(3);

    const probe = await ffprobe(result.videoPath);
    const v = probe.streams.find((s) => s.codec_type === 'video');
    expect(v).toMatchObject({ codec_name: 'h264', width: 216, height: 384, pix_fmt: 'yuv420p' });
    expect(v?.r_frame_rate).toBe('30/1');
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    const durationMs = Number(probe.format.duration) * 1000;
    expect(Math.abs(durationMs - narration.durationMs)).toBeLessThan(500);
    expect(Math.abs((await measureLoudness(result.videoPath)) + 16)).toBeLessThanOrEqual(1);

    // Red at the start and after the window looped once; then the still (not red).
    for (const t of [0.2, 1.3]) {
      const [r, g, b] = await colourAt(result.videoPath, t);
      expect(r).toBeGreaterThan(180);
      expect(g + b).toBeLessThan(120);
    }
    const [r2, g2, b2] = await colourAt(result.videoPath, (split + 300) / 1000);
    expect(r2 > 180 && g2 + b2 < 120).toBe(false);

    const cues = parseSrt(await readFile(result.srtPath, 'utf8'));
    expect(cues.map((c) => c.text).join('')).toContain('第二段是一张图片。');
    expect((await stat(result.coverPath)).size).toBeGreaterThan(500);
  });

  it('holds the last frame of a short clip and applies extra filters', async () => {
    const result = await composeSegments(
      {
        aspect: '9:16',
        segments: [
          {
            media: { kind: 'video', path: clip, startMs: 0, endMs: 500 },
            durationMs: narration.durationMs,
          },
        ],
        narrationWav: narration.wavPath,
        ...captions,
        // negate: blue becomes yellow, so the filter provably ran.
        videoFilters: ['negate'],
      },
      path.join(dir, 'held'),
      { size, concurrency: 1 },
    );
    const durationMs = Number((await ffprobe(result.videoPath)).format.duration) * 1000;
    expect(Math.abs(durationMs - narration.durationMs)).toBeLessThan(500);
    // Long after the 0.5 s window: still the (negated) blue, never the red of the file.
    const [r, g, b] = await colourAt(result.videoPath, 1.8);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeGreaterThan(180);
    expect(b).toBeLessThan(80);
  });

  it('refuses a missing or unusable video', async () => {
    await expect(
      composeSegments(
        {
          aspect: '9:16',
          segments: [{ media: { kind: 'video', path: image }, durationMs: 1000 }],
          narrationWav: narration.wavPath,
          ...captions,
        },
        path.join(dir, 'bad'),
        { size },
      ),
    ).rejects.toThrow('素材不是可用的视频');
  });
});
