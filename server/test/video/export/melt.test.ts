import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MUSIC_VOLUME_DEFAULT } from '@kol/shared-sdk/contracts';
import { findRepoRoot } from '../../../src/paths';
import { LocalStore } from '../../../src/storage/local-store';
import { captionBand, toAss, toSrt, type Cue } from '../../../src/video/engine/captions';
import { composeSegments, type ComposeSegment } from '../../../src/video/engine/compose-segments';
import { ffmpegToFile, probeWithFfmpeg, runFfmpeg } from '../../../src/video/engine/ffmpeg';
import { cjkFonts } from '../../../src/video/engine/fonts';
import { mltProject, type MltFiles } from '../../../src/video/export/mlt';
import { timelineOf, type Timeline } from '../../../src/video/export/timeline';
import { onPostgres } from '../../helpers/test-app';
import { frameDistance } from '../proof';

// The MLT project of a composition, rendered by melt (MLT's own renderer, the engine of
// Shotcut and Kdenlive, from Debian's package), shows what our render showed: the same length,
// the same picture at every frame (the Ken Burns motions, the cover crop of pictures of
// another aspect, a looped clip, a clip held on its last frame), the voice and the music at
// their levels, and the captions at the same moments. No database: the PostgreSQL lane skips it.

const run = promisify(execFile);
const size = { width: 270, height: 480 };
const FPS = 30;
/** Frames are compared as small RGB pictures: encoding noise averages out, content does not. */
const PROBE = { width: 27, height: 48 };
/**
 * The most two renders of the same frame may differ: the mean absolute difference of the
 * PROBE-sized RGB bytes (0 to 255). Measured over all 240 frames: 4.2 at most, 2.1 on average
 * (zoompan moves its window by whole pixels of a 1.5x picture, melt's affine by fractions);
 * a segment's middle frame against another segment's: 70 to 150.
 */
const SAME_PICTURE = 8;
/** A caption's white glyph pixels: the pictures are dimmed below this (see `dimmed`). */
const GLYPH_GREY = 215;

let dir: string;
let ours: string;
let melted: string;
let timeline: Timeline;
const cues: Cue[] = [
  // Over the first segment's middle, none over the second's, then over the next two's.
  { text: '山中有座庙', startMs: 100, endMs: 1300 },
  { text: '庙里有个和尚', startMs: 2600, endMs: 4400 },
  { text: '和尚在讲故事', startMs: 5100, endMs: 6400 },
];

/** Below GLYPH_GREY everywhere, so white caption pixels are told from the picture's own. */
const dimmed = 'lutrgb=r=val*0.7:g=val*0.7:b=val*0.7';

async function still(name: string, source: string): Promise<string> {
  const file = path.join(dir, 'media', name);
  await ffmpegToFile(['-f', 'lavfi', '-i', source, '-vf', dimmed, '-frames:v', '1'], file);
  return file;
}

/** Every frame of a video as PROBE-sized RGB bytes, in one decode. */
async function smallFrames(video: string): Promise<Buffer[]> {
  const out = `${video}.rgb`;
  await runFfmpeg([
    ...['-i', video, '-vf', `scale=${PROBE.width}:${PROBE.height}:flags=area,format=rgb24`],
    ...['-f', 'rawvideo', out],
  ]);
  return split(await readFile(out), PROBE.width * PROBE.height * 3);
}

/** Every frame's caption band at full size, grey, in one decode. */
async function captionBands(video: string): Promise<Buffer[]> {
  const band = captionBand(size, '9:16');
  const top = Math.max(0, band.top - 4);
  const height = Math.min(size.height, band.bottom + 4) - top;
  const out = `${video}.band`;
  await runFfmpeg([
    ...['-i', video, '-vf', `crop=${size.width}:${height}:0:${top},format=gray`],
    ...['-f', 'rawvideo', out],
  ]);
  return split(await readFile(out), size.width * height);
}

function split(bytes: Buffer, frameBytes: number): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at + frameBytes <= bytes.length; at += frameBytes) {
    frames.push(bytes.subarray(at, at + frameBytes));
  }
  return frames;
}

const glyphPixels = (band: Buffer | undefined) =>
  (band ?? Buffer.alloc(0)).reduce((n, grey) => n + (grey >= GLYPH_GREY ? 1 : 0), 0);

/** The sound of a video as mono 48 kHz samples. */
async function samples(video: string): Promise<Float32Array> {
  const out = `${video}.pcm`;
  await runFfmpeg(['-i', video, '-ac', '1', '-ar', '48000', '-f', 'f32le', out]);
  const bytes = await readFile(out);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** The amplitude of one frequency between two moments (a whole number of its cycles). */
function amplitude(sound: Float32Array, hz: number, fromMs: number, toMs: number): number {
  const from = Math.round((fromMs * 48_000) / 1000);
  const to = Math.round((toMs * 48_000) / 1000);
  let re = 0;
  let im = 0;
  for (let i = from; i < to; i++) {
    const phase = (2 * Math.PI * hz * (i - from)) / 48_000;
    re += (sound[i] ?? 0) * Math.cos(phase);
    im += (sound[i] ?? 0) * Math.sin(phase);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

(onPostgres ? describe.skip : describe)('the MLT project, rendered by melt', () => {
  beforeAll(async () => {
    // Debian's melt, installed with apt when missing (minutes, the first time on a machine).
    execFileSync(process.execPath, [path.join(findRepoRoot(), 'scripts', 'ensure-melt.mjs')], {
      stdio: 'inherit',
      timeout: 20 * 60_000,
    });

    dir = await mkdtemp(path.join(os.tmpdir(), 'kol-melt-'));
    const mediaDir = path.join(dir, 'media');
    await mkdir(mediaDir, { recursive: true });
    const stores = {
      media: new LocalStore(mediaDir),
      uploads: new LocalStore(path.join(dir, 'uploads')),
    };

    // Three pictures unlike each other, two of another aspect than the 9:16 frame (so the
    // cover crop matters), and a 1 s clip whose colours turn all the way round (so a frame
    // tells where in the clip it is).
    const pictures = {
      wide: await still('wide.png', 'mandelbrot=s=640x360'),
      square: await still('square.png', 'testsrc2=s=400x400'),
      tall: await still('tall.png', 'smptehdbars=s=540x960'),
    };
    const clip = path.join(mediaDir, 'clip.mp4');
    await ffmpegToFile(
      [
        ...['-f', 'lavfi', '-i', 'testsrc=s=320x240:r=30:d=1', '-vf', `hue=H=2*PI*t,${dimmed}`],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ],
      clip,
    );
    // A voice of sorts (a tone in bursts of 1 s) and a 2.5 s music loop.
    const narration = path.join(mediaDir, 'narration.wav');
    await ffmpegToFile(
      [
        ...['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=8'],
        ...['-af', "volume='if(lt(mod(t,1.3),1),0.8,0)':eval=frame"],
      ],
      narration,
    );
    const music = path.join(mediaDir, 'music.wav');
    await ffmpegToFile(
      ['-f', 'lavfi', '-i', 'sine=frequency=660:sample_rate=48000:duration=2.5'],
      music,
    );

    // Motions by index (compose.ts MOTIONS): zoom-in, pan-right, (a clip), pan-left; then
    // the clip again, half a second of it held on its last frame.
    const segments: ComposeSegment[] = [
      { media: { kind: 'image', path: pictures.wide }, durationMs: 1500 },
      { media: { kind: 'image', path: pictures.square }, durationMs: 1500 },
      { media: { kind: 'video', path: clip, loop: true }, durationMs: 2000 },
      { media: { kind: 'image', path: pictures.tall }, durationMs: 1500 },
      { media: { kind: 'video', path: clip, startMs: 200, endMs: 700 }, durationMs: 1500 },
    ];
    const captions = { assPath: path.join(dir, 'in.ass'), srtPath: path.join(dir, 'in.srt') };
    await writeFile(captions.assPath, toAss(cues, size, '9:16', 'classic'));
    await writeFile(captions.srtPath, toSrt(cues, '9:16'));
    const result = await composeSegments(
      { aspect: '9:16', segments, narrationWav: narration, musicPath: music, ...captions },
      path.join(dir, 'out'),
      { size, concurrency: 2, name: 'ours', musicVolume: MUSIC_VOLUME_DEFAULT },
    );
    ours = result.videoPath;
    const made = timelineOf(
      {
        aspect: '9:16',
        size,
        segments,
        narration,
        cues,
        captionStyle: 'classic',
        music: { path: music, volume: MUSIC_VOLUME_DEFAULT },
      },
      { mediaDir, stores },
    );
    if (!made) throw new Error('the composition has no timeline');
    timeline = made;

    // The project folder as the export lays it out: the .mlt, its captions, media/.
    const project = path.join(dir, 'project');
    await mkdir(path.join(project, 'media'), { recursive: true });
    const inProject = (file: string) => `media/${path.basename(file)}`;
    for (const file of [...Object.values(pictures), clip, narration, music]) {
      await copyFile(file, path.join(project, inProject(file)));
    }
    await writeFile(path.join(project, 'captions.ass'), toAss(timeline.cues, size, '9:16'));
    const files: MltFiles = {
      segments: timeline.segments.map((s) => `media/${path.posix.basename(s.file.key)}`),
      narration: inProject(narration),
      music: inProject(music),
      captions: 'captions.ass',
      // The square picture's size left unknown: a centred crop covers the frame then.
      imageSizes: [
        { width: 640, height: 360 },
        null,
        { width: 320, height: 240 },
        { width: 540, height: 960 },
        { width: 320, height: 240 },
      ],
      clipDurationsMs: [null, null, 1000, null, 1000],
      musicDurationMs: 2500,
    };
    await writeFile(path.join(project, 'project.mlt'), mltProject(timeline, files));

    // The captions' font installed for melt's libass, as on a machine that has Noto Sans SC
    // (else libass substitutes a CJK face of its own, or none).
    const fontsConf = path.join(dir, 'fonts.conf');
    await writeFile(
      fontsConf,
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${cjkFonts().dir}</dir>`,
        `  <cachedir>${path.join(dir, 'fontconfig')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );

    // Rendered from another folder: every path in the project is read against its own folder.
    melted = path.join(dir, 'melt.mp4');
    await run(
      'melt',
      [
        ...['-silent', path.join(project, 'project.mlt'), '-consumer', `avformat:${melted}`],
        // The profile's size and rate; every frame rendered (real_time=-1: none dropped).
        ...['real_time=-1', 'vcodec=libx264', 'preset=veryfast', 'crf=18', 'pix_fmt=yuv420p'],
        ...['acodec=aac', 'ar=48000', 'channels=2'],
      ],
      {
        cwd: dir,
        env: { ...process.env, FONTCONFIG_FILE: fontsConf },
        // melt was seen to hang rather than fail, deaf to SIGTERM.
        timeout: 120_000,
        killSignal: 'SIGKILL',
      },
    );
  }, 30 * 60_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lasts as long as our render, to the frame', async () => {
    const [mine, theirs] = await Promise.all([probeWithFfmpeg(ours), probeWithFfmpeg(melted)]);
    expect(theirs.video).toMatchObject({ width: size.width, height: size.height, fps: FPS });
    expect(theirs.audio).toBeDefined();
    expect(Math.abs((theirs.durationMs ?? 0) - (mine.durationMs ?? 0))).toBeLessThanOrEqual(
      1000 / FPS,
    );
  });

  it('shows every frame as our render did', async () => {
    const [mine, theirs] = await Promise.all([smallFrames(ours), smallFrames(melted)]);
    const frame = (frames: Buffer[], i: number) => frames[i] ?? Buffer.alloc(0);
    const distance = (a: Buffer[], i: number, b: Buffer[], j: number) =>
      frameDistance(frame(a, i), frame(b, j));
    expect(theirs.length).toBe(mine.length);
    for (let i = 0; i < mine.length; i++)
      expect(distance(theirs, i, mine, i)).toBeLessThan(SAME_PICTURE);

    // What there was to reproduce. The stills move: their first and last frames differ.
    const [wide, square, looped, tall, held] = timeline.segments.map((s) => ({
      first: s.startFrame,
      last: s.startFrame + s.frames - 1,
      middle: s.startFrame + Math.floor(s.frames / 2),
    }));
    for (const still of [wide, square, tall]) {
      expect(distance(mine, still?.first ?? 0, mine, still?.last ?? 0)).toBeGreaterThan(
        SAME_PICTURE,
      );
    }
    // The 1 s clip changes within a second, and starts again after it (30 frames).
    const loop = looped?.first ?? 0;
    expect(distance(mine, loop + 5, mine, loop + 20)).toBeGreaterThan(2 * SAME_PICTURE);
    expect(distance(mine, loop + 5, mine, loop + 35)).toBeLessThan(SAME_PICTURE);
    // The half second of the clip, then its last frame, unchanged to the end.
    const hold = held?.first ?? 0;
    expect(distance(mine, hold, mine, hold + 14)).toBeGreaterThan(2 * SAME_PICTURE);
    expect(distance(mine, hold + 14, mine, held?.last ?? 0)).toBeLessThan(SAME_PICTURE / 4);

    // The threshold tells pictures apart: each middle against every other segment's middle.
    const middles = [wide, square, looped, tall, held].map((s) => s?.middle ?? 0);
    const others = middles.flatMap((f, i) =>
      middles.filter((_, j) => j !== i).map((g) => distance(theirs, f, mine, g)),
    );
    expect(Math.min(...others)).toBeGreaterThan(4 * SAME_PICTURE);
  });

  it('mixes the voice and the music, looped at its level and dipped under the voice', async () => {
    const sound = await samples(melted);
    // lavfi's sine has an amplitude of 1/8; the voice sounds 0.8 of it, in bursts.
    expect(amplitude(sound, 220, 200, 900)).toBeCloseTo(0.1, 2);
    expect(amplitude(sound, 220, 1050, 1250)).toBeLessThan(0.005);
    // Between the first two cues the music plays at the timeline's level, under a cue at
    // DUCKED_SHARE (0.3) of it; past its 2.5 s it starts again.
    const full = amplitude(sound, 660, 1800, 2500);
    expect(full / (MUSIC_VOLUME_DEFAULT / 8)).toBeCloseTo(1, 1);
    for (const [from, to] of [
      [300, 1200],
      [2800, 4300],
      [5300, 6300],
    ] as const) {
      expect(amplitude(sound, 660, from, to) / full).toBeCloseTo(0.3, 1);
    }
    expect(amplitude(sound, 660, 6900, 7900) / full).toBeCloseTo(1, 1);
  });

  it('draws the captions at the same moments', async () => {
    const [mine, theirs] = await Promise.all([captionBands(ours), captionBands(melted)]);
    for (const segment of timeline.segments) {
      const middle = segment.startFrame + Math.floor(segment.frames / 2);
      const ms = (middle * 1000) / FPS;
      const shown = cues.some((cue) => cue.startMs <= ms && ms < cue.endMs);
      const [a, b] = [glyphPixels(mine[middle]), glyphPixels(theirs[middle])];
      if (shown) {
        // Measured: within 5% of each other (libass versions, encoders).
        expect(a).toBeGreaterThan(100);
        expect(Math.abs(b - a)).toBeLessThan(a * 0.2);
      } else {
        expect(a + b).toBeLessThan(10);
      }
    }
  });
});
