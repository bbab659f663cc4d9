import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadImage } from '@napi-rs/canvas';
import {
  apportionByChars,
  splitSentences,
  toAss,
  toSrt,
  writeCaptions,
} from '../../../src/video/engine/captions';
import { CJK_LINE_LIMIT, pageLines } from '../../../src/video/engine/caption-lines';
import { renderPart } from '../../../src/video/engine/compose';
import { composeVideo } from '../../../src/video/engine/compose-segments';
import {
  FfmpegError,
  ffmpegToFile,
  measureLoudness,
  probeWithFfmpeg,
  serverRequire,
} from '../../../src/video/engine/ffmpeg';
import { renderFrame, renderFrameToFile } from '../../../src/video/engine/frames/render-frame';
import { AMBIENT_TRACKS, ensureAmbientTrack } from '../../../src/video/library/music/ambient';
import { listVoices, synthesize, synthesizeSentences } from '../../../src/providers/speech/espeak';

const run = promisify(execFile);
const ffprobePath = (serverRequire()('@ffprobe-installer/ffprobe') as { path: string }).path;

async function ffprobe(file: string): Promise<{
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    r_frame_rate?: string;
    pix_fmt?: string;
  }[];
  format: { duration: string };
}> {
  const { stdout } = await run(ffprobePath, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]);
  return JSON.parse(stdout) as Awaited<ReturnType<typeof ffprobe>>;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-media-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('offline speech (espeak-ng in a child process)', () => {
  // Test files that ran before in this jest process had module registries of their own, so
  // their worker pools may still idle here: the workers that count are the ones started since.
  let foreign = new Set<number>();
  const ourWorkers = () => espeakWorkers().filter((pid) => !foreign.has(pid));
  beforeAll(() => {
    foreign = new Set(espeakWorkers());
  });

  it('lists Mandarin and English voices with Chinese names', () => {
    const voices = listVoices();
    expect(voices.map((v) => v.language)).toEqual(expect.arrayContaining(['zh', 'en']));
    expect(voices.every((v) => v.engine === 'espeak-ng（离线）')).toBe(true);
    expect(voices.find((v) => v.voiceId === 'espeak-cmn-f')?.name).toMatch(/普通话/);
  });

  it('synthesises Chinese text to a non-empty WAV of plausible length', async () => {
    const text = '今天天气很好，我们一起去公园散步吧。';
    const { wavPath, durationMs } = await synthesize(text, path.join(dir, 'zh.wav'));
    const buf = await readFile(wavPath);
    expect(buf.toString('ascii', 0, 4)).toBe('RIFF');
    expect(buf.length).toBeGreaterThan(10_000);
    // About 3 to 8 characters a second for espeak's Mandarin at normal speed.
    expect(durationMs).toBeGreaterThan(text.length * 100);
    expect(durationMs).toBeLessThan(text.length * 400);
    const fast = await synthesize(text, path.join(dir, 'zh-fast.wav'), { speed: 1.6 });
    expect(fast.durationMs).toBeLessThan(durationMs);
  });

  it('rejects an unknown voice', async () => {
    await expect(synthesize('你好', path.join(dir, 'x.wav'), { voiceId: 'nope' })).rejects.toThrow(
      '未知的离线音色',
    );
  });

  it('keeps its worker processes between batches, each batch speaking as a fresh one would', async () => {
    // The male voices are deterministic (the female variants draw noise at random), so the same
    // sentence must come out byte for byte the same however many batches the worker ran before.
    const text = '-v 开头的一句话，也只是文字。';
    const options = { voiceId: 'espeak-cmn-m' };
    const first = await synthesize(text, path.join(dir, 'same-1.wav'), options);
    const workers = ourWorkers();
    expect(workers.length).toBeGreaterThanOrEqual(1);
    await synthesize('另一句话。', path.join(dir, 'other.wav'), { voiceId: 'espeak-en-us-m' });
    const again = await synthesize(text, path.join(dir, 'same-2.wav'), options);
    expect(again.durationMs).toBe(first.durationMs);
    expect((await readFile(again.wavPath)).equals(await readFile(first.wavPath))).toBe(true);
    // The same processes answered: none was started for the later batches.
    expect(ourWorkers()).toEqual(workers);
    // Batches beyond one per core wait for a worker rather than starting more.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        synthesize(`第${i + 1}句。`, path.join(dir, `parallel-${i}.wav`), options),
      ),
    );
    expect(parallel.every((spoken) => spoken.durationMs > 0)).toBe(true);
    expect(ourWorkers().length).toBeLessThanOrEqual(Math.min(4, os.availableParallelism()));
  });

  /** Kills this file's workers while a long batch speaks (it takes seconds), not before. */
  async function killWhileSpeaking(others: number[] = []): Promise<number[]> {
    let workers: number[] = [];
    for (let i = 0; i < 200 && workers.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      workers = ourWorkers().filter((pid) => !others.includes(pid));
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    for (const pid of workers) process.kill(pid, 'SIGKILL');
    return workers;
  }
  /** Gone from /proc (a SIGKILL is delivered, and the child reaped, a moment later). */
  async function gone(pids: number[]): Promise<boolean> {
    for (let i = 0; i < 100; i += 1) {
      if (!ourWorkers().some((pid) => pids.includes(pid))) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }
  // About 1 s of synthesis on this machine (40 repeats took 0.3 s: a kill could come after it).
  const long = '这是一段很长的旁白，用来让合成多花一些时间。'.repeat(150);

  it('speaks a batch again on a new worker when its worker dies under it', async () => {
    await synthesize('先说一句。', path.join(dir, 'before.wav'));
    const speaking = synthesize(long, path.join(dir, 'once.wav'));
    const killed = await killWhileSpeaking();
    expect(killed.length).toBeGreaterThan(0);
    expect((await speaking).durationMs).toBeGreaterThan(30_000);
    expect(await gone(killed)).toBe(true);
  });

  it('fails a batch with a message when its worker dies twice, and speaks the next one', async () => {
    const speaking = synthesize(long, path.join(dir, 'killed.wav'));
    const first = await killWhileSpeaking();
    await killWhileSpeaking(first);
    await expect(speaking).rejects.toThrow(/^离线语音合成失败：/);
    const after = await synthesize('再说一句。', path.join(dir, 'after.wav'));
    expect(after.durationMs).toBeGreaterThan(0);
  });
});

/** The pids of this process's espeak worker children, read from /proc. */
function espeakWorkers(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (ppid === process.pid && cmdline.includes('espeak-worker.mjs')) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found.sort((a, b) => a - b);
}

describe('local frame renderer', () => {
  it('renders a JPEG of the requested size, the same bytes for the same input', async () => {
    const input = {
      scene: '夜晚的城市街道，霓虹闪烁',
      roles: ['林晓', '陈默'],
      width: 1080,
      height: 1920,
    };
    const a = renderFrame(input);
    const b = renderFrame(input);
    expect(a[0]).toBe(0xff);
    expect(a[1]).toBe(0xd8);
    expect(a.equals(b)).toBe(true);
    const img = await loadImage(a);
    expect([img.width, img.height]).toEqual([1080, 1920]);
    const other = renderFrame({ ...input, scene: '清晨的海边' });
    expect(other.equals(a)).toBe(false);
    const file = await renderFrameToFile(
      { ...input, width: 1920, height: 1080 },
      path.join(dir, 'f.jpg'),
    );
    const wide = await loadImage(await readFile(file));
    expect([wide.width, wide.height]).toEqual([1920, 1080]);
  });
});

describe('captions', () => {
  it('splits at Chinese punctuation, wraps long CJK lines and burns one caption line per cue', () => {
    expect(splitSentences('第一句。第二句！第三句？\n第四句')).toEqual([
      '第一句。',
      '第二句！',
      '第三句？',
      '第四句',
    ]);
    const long = '这是一个非常非常长的句子用来测试字幕在竖屏画面中的自动换行是否正确处理';
    const lines = pageLines(long, 14);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((l) => Array.from(l).length <= 14)).toBe(true);
    expect(lines.join('')).toBe(long);
    const ass = toAss(
      [{ text: long, startMs: 0, endMs: 3000 }],
      { width: 1080, height: 1920 },
      '9:16',
    );
    expect(ass).toContain('Noto Sans SC');
    // One caption line per cue (caption-lines.test.ts), together covering the sentence's time.
    const dialogue = ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(dialogue.length).toBeGreaterThan(1);
    expect(dialogue[0]).toMatch(/^Dialogue: 0,0:00:00\.00,/);
    expect(dialogue.at(-1)).toMatch(/,0:00:03\.00,Caption,/);
    // English wraps at spaces, never mid-word.
    expect(
      pageLines('the quick brown fox jumps over the lazy dog again and again', 14).every(
        (l) => !l.startsWith(' '),
      ),
    ).toBe(true);
  });

  it('styles the burned captions as the work asks, or burns none', () => {
    const cues = [{ text: '你好。', startMs: 0, endMs: 1000 }];
    const styleLine = (style?: 'classic' | 'yellow' | 'box' | 'none') =>
      toAss(cues, { width: 1080, height: 1920 }, '9:16', style)
        .split('\n')
        .find((line) => line.startsWith('Style: Caption'))
        ?.split(',') ?? [];
    // PrimaryColour (3), OutlineColour (5), BorderStyle (15).
    expect([styleLine()[3], styleLine()[5], styleLine()[15]]).toEqual([
      '&H00FFFFFF',
      '&H00000000',
      '1',
    ]);
    expect(styleLine('yellow')[3]).toBe('&H0000E5FF');
    expect([styleLine('box')[5], styleLine('box')[15]]).toEqual(['&H60000000', '3']);
    expect(toAss(cues, { width: 1080, height: 1920 }, '9:16', 'none')).not.toContain('Dialogue:');
  });

  it('burns phone-sized captions: a line at the limit fits, its glyphs 64 px tall at 1080 wide', async () => {
    // Half scale: every size follows the frame, so 32 px here are 64 px in the real video.
    const size = { width: 540, height: 960 };
    const line = '国'.repeat(CJK_LINE_LIMIT['9:16']);
    const assPath = path.join(dir, 'limit.ass');
    await writeFile(assPath, toAss([{ text: line, startMs: 0, endMs: 1000 }], size, '9:16'));
    const part = await renderPart(
      {
        inputArgs: ['-f', 'lavfi', '-i', `color=c=gray:s=${size.width}x${size.height}:r=30:d=1`],
        filters: ['setsar=1'],
        firstFrame: 0,
        frames: 3,
        assPath,
      },
      path.join(dir, 'limit.mp4'),
    );
    const gray = path.join(dir, 'limit.gray');
    await ffmpegToFile(
      ['-i', part, '-frames:v', '1', '-vf', 'format=gray', '-f', 'rawvideo'],
      gray,
    );
    const pixels = await readFile(gray);
    /** The box of the pixels matching `test` (white glyphs, or their black outline). */
    const box = (test: (v: number) => boolean) => {
      let [top, bottom, left, right] = [size.height, -1, size.width, -1];
      pixels.forEach((v, i) => {
        if (!test(v)) return;
        const [x, y] = [i % size.width, Math.floor(i / size.width)];
        [top, bottom] = [Math.min(top, y), Math.max(bottom, y)];
        [left, right] = [Math.min(left, x), Math.max(right, x)];
      });
      return { top, bottom, left, right };
    };
    const glyphs = box((v) => v > 220);
    const outline = box((v) => v < 40);
    const scale = size.width / 1080;
    // 国 inks 0.9 of its em in Noto Sans SC: 64 px glyphs ink at least 57 px at 1080 wide.
    expect(glyphs.bottom - glyphs.top + 1).toBeGreaterThanOrEqual(Math.floor(0.9 * 64 * scale));
    expect(glyphs.right - glyphs.left + 1).toBeGreaterThanOrEqual(
      Math.floor((CJK_LINE_LIMIT['9:16'] - 1) * 64 * scale),
    );
    // The whole line with its outline inside the frame, in the lower part where captions go.
    expect(outline.left).toBeGreaterThan(0);
    expect(outline.right).toBeLessThan(size.width - 1);
    expect(glyphs.top).toBeGreaterThan(size.height * 0.7);
    // The outline surrounds the glyphs (it reads on a light picture as on a dark one).
    expect(outline.left).toBeLessThan(glyphs.left);
    expect(outline.bottom).toBeGreaterThan(glyphs.bottom);
  }, 60_000);

  it('apportions and writes SRT cues that cover the whole narration', () => {
    const cues = apportionByChars(['一二三。', '四五六七八九。'], 5000);
    expect(cues[0]?.startMs).toBe(0);
    expect(cues[cues.length - 1]?.endMs).toBe(5000);
    const srt = toSrt(cues);
    expect(srt).toContain('00:00:00,000 --> ');
    expect(srt).toContain('--> 00:00:05,000');
  });
});

describe('composition (real ffmpeg)', () => {
  it('composes a 3-shot video: H.264/AAC, 30 fps, duration of the narration, SRT, cover, -16 LUFS', async () => {
    const narration = '夜幕降临，城市亮起了灯。林晓独自走在街上。她想起了很多年前的那个夏天。';
    const sentences = splitSentences(narration);
    const speech = await synthesizeSentences(sentences, path.join(dir, 'narration.wav'));
    expect(speech.segments).toHaveLength(3);
    const size = { width: 360, height: 640 };
    const capPaths = {
      srtPath: path.join(dir, 'captions.srt'),
      assPath: path.join(dir, 'captions.ass'),
    };
    await writeCaptions(speech.segments, capPaths, size, '9:16');
    // SRT cues cover the speech: first starts at 0, last ends at the narration's end.
    expect(speech.segments[0]?.startMs).toBe(0);
    expect(Math.abs((speech.segments[2]?.endMs ?? 0) - speech.durationMs)).toBeLessThan(5);

    const shots = await Promise.all(
      [0, 1, 2].map(async (i) => ({
        imagePath: await renderFrameToFile(
          { scene: `场景${i}`, roles: ['林晓'], width: size.width, height: size.height },
          path.join(dir, `shot${i}.jpg`),
        ),
        durationMs:
          i < 2
            ? Math.round(speech.durationMs / 3)
            : speech.durationMs - 2 * Math.round(speech.durationMs / 3),
      })),
    );
    const musicPath = await ensureAmbientTrack(
      path.join(dir, 'music'),
      AMBIENT_TRACKS[0]?.id ?? '',
    );
    const out = path.join(dir, 'out');
    const result = await composeVideo(
      { aspect: '9:16', shots, narrationWav: speech.wavPath, musicPath, ...capPaths },
      out,
      { size },
    );

    const probe = await ffprobe(result.videoPath);
    const v = probe.streams.find((s) => s.codec_type === 'video');
    const a = probe.streams.find((s) => s.codec_type === 'audio');
    expect(v?.codec_name).toBe('h264');
    expect(v?.pix_fmt).toBe('yuv420p');
    expect([v?.width, v?.height]).toEqual([360, 640]);
    expect(v?.r_frame_rate).toBe('30/1');
    expect(a?.codec_name).toBe('aac');
    expect(Math.abs(Number(probe.format.duration) * 1000 - speech.durationMs)).toBeLessThan(500);

    // The engine's own probe (used against truncated outputs) reads the same facts.
    const own = await probeWithFfmpeg(result.videoPath);
    expect(own.video).toEqual({ codec: 'h264', width: 360, height: 640, fps: 30 });
    expect(own.audio?.codec).toBe('aac');
    expect(Math.abs((own.durationMs ?? 0) - result.durationMs)).toBeLessThan(100);

    expect(existsSync(result.srtPath)).toBe(true);
    expect(path.dirname(result.srtPath)).toBe(path.dirname(result.videoPath));
    expect((await stat(result.coverPath)).size).toBeGreaterThan(1000);
    expect(Math.abs((await measureLoudness(result.videoPath)) + 16)).toBeLessThanOrEqual(1);
    // Nothing half-written is left behind.
    expect((await readdir(out)).sort()).toEqual(['video-cover.jpg', 'video.mp4', 'video.srt']);
  }, 180_000);

  it('rejects a bad input with a clear message and leaves no output file', async () => {
    const bad = path.join(dir, 'bad.jpg');
    await writeFile(bad, 'not an image');
    const out = path.join(dir, 'bad-out', 'bad.mp4');
    await rm(path.dirname(out), { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(out), { recursive: true }));
    const err = await ffmpegToFile(['-i', bad, '-c:v', 'libx264'], out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as Error).message).toMatch(/ffmpeg 执行失败（退出码 \d+）：.+/);
    expect(await readdir(path.dirname(out))).toEqual([]);

    await expect(
      composeVideo(
        {
          aspect: '9:16',
          shots: [{ imagePath: bad, durationMs: 1000 }],
          narrationWav: path.join(dir, 'zh.wav'),
          assPath: path.join(dir, 'captions.ass'),
          srtPath: path.join(dir, 'captions.srt'),
        },
        path.dirname(out),
        { size: { width: 180, height: 320 } },
      ),
    ).rejects.toThrow(/ffmpeg 执行失败/);
    expect(await readdir(path.dirname(out))).toEqual([]);
  }, 60_000);
});
