import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import {
  LOCAL_FALLBACK_LABEL,
  LOCAL_FRAME_LABEL,
  type WorkResult,
  type WorkSummary,
} from '@kol/shared-sdk/contracts';
import { lineWidth } from '../../src/video/engine/caption-lines';
import { resolveFfmpegPath } from '../../src/video/engine/ffmpeg';
import { KEPT_PICTURE_ENGINE } from '../../src/video/pipelines/kit/shots';
import {
  longCaptionLines,
  NO_UPLOAD_FRAME_LABEL,
  qualityReport,
  recordedEngines,
} from '../../src/video/pipelines/kit/quality-report';
import { ESPEAK_ENGINE } from '../../src/providers/speech/espeak';
import { speechFrom } from '../../src/providers/speech';
import { createTestApp } from '../helpers/test-app';
import {
  fakeOpenAiImages,
  startFakeImages,
  type FakeImages,
} from '../providers/fake-image-servers';
import { signedInClient, type Client } from '../writing/helpers';
import { ffprobe, finishedWork, mediaFile, renderingTasks } from './proof';

// Real espeak-ng and ffmpeg at the tests' small size; the image provider is a loopback fake.
jest.setTimeout(300_000);

const run = promisify(execFile);

/**
 * The loudness and true peak of a file measured here, not by the module under test: ffmpeg's
 * ebur128 summary read with its own parsing, so a mistake in quality-report.ts shows.
 */
async function independentLoudness(file: string): Promise<{ lufs: number; peak: number }> {
  const { stderr } = await run(resolveFfmpegPath(), [
    '-nostdin',
    '-hide_banner',
    '-i',
    file,
    '-vn',
    '-af',
    'ebur128=peak=true',
    '-f',
    'null',
    '-',
  ]);
  const summary = stderr.split('Summary:').at(-1) ?? '';
  const lufs = Number(/Integrated loudness:\s*I:\s*(\S+) LUFS/.exec(summary)?.[1]);
  const peak = Number(/True peak:\s*Peak:\s*(\S+) dBFS/.exec(summary)?.[1]);
  return { lufs, peak };
}

describe('caption lines against the limit', () => {
  it('counts a Latin letter as half a CJK character', () => {
    expect(lineWidth('山门很旧')).toBe(4);
    expect(lineWidth('AI时代')).toBe(3);
    expect(lineWidth('，。')).toBe(2);
  });

  it('reports the lines of an SRT longer than 14 (9:16), 24 (16:9) or 42 English characters', () => {
    const srt = [
      '1',
      '00:00:00,000 --> 00:00:02,000',
      '林动走进山门，山门很旧，雨一直下着没有停', // 20 CJK: long in 9:16, fine in 16:9
      '',
      '2',
      '00:00:02,000 --> 00:00:04,000',
      '苏柔撑伞等他，她笑了', // 10: fine
      'GPT模型与AI工具帮我们写了这段很长的文案内容', // 7 Latin (3.5) + 18 CJK = 21.5
      '',
      '3',
      '00:00:04,000 --> 00:00:06,000',
      'This English caption line is far too long for one line.', // 55
      '',
      '4',
      '00:00:06,000 --> 00:00:08,000',
      '<i>Short and fine.</i>',
      '',
    ].join('\r\n');
    expect(longCaptionLines(srt, '9:16')).toEqual([
      { text: '林动走进山门，山门很旧，雨一直下着没有停', chars: 20, limit: 14 },
      { text: 'GPT模型与AI工具帮我们写了这段很长的文案内容', chars: 21.5, limit: 14 },
      { text: 'This English caption line is far too long for one line.', chars: 55, limit: 42 },
    ]);
    expect(longCaptionLines(srt, '16:9')).toEqual([
      { text: 'This English caption line is far too long for one line.', chars: 55, limit: 42 },
    ]);
  });
});

describe('the engines a task recorded', () => {
  it('reads the text, pictures and voice engines and the shots that fell back', () => {
    const { providers, fallbackShots } = recordedEngines(
      {
        script: { translatedBy: 'fake-model（127.0.0.1）' },
        images: {
          shotImages: [0, 1, 2, 3].map((index) => ({
            index,
            image: `/media/7/t/frames/shot-00${index}.jpg`,
            engine: index % 2 ? LOCAL_FALLBACK_LABEL : 'fake-image（x）',
            needsRegeneration: index % 2 === 1,
          })),
        },
        voice: { engine: 'espeak-ng' },
      },
      speechFrom(null),
    );
    expect(providers).toEqual({
      text: 'fake-model（127.0.0.1）',
      pictures: `fake-image（x）、${LOCAL_FALLBACK_LABEL}`,
      voice: 'espeak-ng',
    });
    expect(fallbackShots).toEqual([1, 3]);
    // A dialogue (anime, drama) records no engine: each speaker's voice names its own.
    const dialogue = recordedEngines(
      {
        script: {
          engine: '用户剧本',
          voices: { 旁白: { voiceId: 'espeak-cmn-f', speedFactor: 1 } },
        },
        shots: { engine: '用户分镜' },
      },
      speechFrom(null),
    );
    expect(dialogue.providers).toEqual({
      text: '用户剧本、用户分镜',
      pictures: null,
      voice: ESPEAK_ENGINE,
    });
    expect(dialogue.offlineVoice).toBe(true);
    // A type without drawn pictures or models (decompression): nothing but the voice.
    expect(
      recordedEngines({ script: {}, voice: { engine: 'espeak-ng' } }, speechFrom(null)).providers,
    ).toEqual({ text: null, pictures: null, voice: 'espeak-ng' });
  });

  it('names the shots drawn locally for want of an image service, and the offline voice', () => {
    const offline = {
      images: {
        shotImages: [
          { index: 0, image: '/media/a.jpg', engine: LOCAL_FRAME_LABEL, needsRegeneration: false },
          {
            index: 1,
            image: '/media/b.jpg',
            engine: KEPT_PICTURE_ENGINE,
            needsRegeneration: false,
          },
          { index: 2, image: '', engine: LOCAL_FRAME_LABEL, needsRegeneration: false },
        ],
      },
      voice: { engine: ESPEAK_ENGINE },
    };
    const recorded = recordedEngines(offline, speechFrom(null), false);
    // A kept picture of unknown engine offline was drawn locally too: nothing else could have
    // drawn it. A shot recorded without a picture is missing, not local.
    expect(recorded.localShots).toEqual([0, 1]);
    expect(recorded.missingShots).toEqual([2]);
    expect(recorded.fallbackShots).toEqual([]);
    expect(recorded.offlineVoice).toBe(true);
    // With an image service configured, a kept picture of unknown engine is the service's; one
    // that says the local renderer drew it (kept with its engine) is still local.
    const configured = recordedEngines(offline, speechFrom(null), true);
    expect(configured.localShots).toEqual([0]);
    expect(configured.missingShots).toEqual([2]);
    // A provider voice is no offline voice.
    expect(
      recordedEngines({ voice: { engine: 'tts-1（x）' } }, speechFrom(null)).offlineVoice,
    ).toBe(false);
    // The market type records per picture: a slot without the user's picture is a local card
    // standing in for a missing picture (the market never asks an image service, so it is not
    // "local for want of a service"); the end card is local by design and never named.
    const market = recordedEngines(
      { images: { engines: ['upload', 'local-frame', 'local-frame', 'end-card'] } },
      speechFrom(null),
      true,
    );
    expect(market.missingShots).toEqual([1, 2]);
    expect(market.localShots).toEqual([]);
    expect(market.providers.pictures).toBe(`用户上传的图片、${NO_UPLOAD_FRAME_LABEL}`);
  });
});

describe('the report of a file with every problem', () => {
  let dir = '';
  let video = '';
  let narration = '';
  let srt = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kol-quality-'));
    const ffmpeg = resolveFfmpegPath();
    video = path.join(dir, 'video.mp4');
    narration = path.join(dir, 'narration.wav');
    // A full-scale tone: far above -16 LUFS, its true peak near 0 dBTP; 4 s of picture over a
    // 2 s narration, as if the composition had added a silent tail.
    await run(ffmpeg, [
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'aevalsrc=0.99*sin(2*PI*997*t):s=48000:d=4',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=64x64:r=30:d=4',
      '-c:a',
      'aac',
      '-c:v',
      'libx264',
      '-shortest',
      video,
    ]);
    await run(ffmpeg, [
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=22050:cl=mono',
      '-t',
      '2',
      narration,
    ]);
    srt = path.join(dir, 'video.srt');
    await writeFile(
      srt,
      '1\n00:00:00,000 --> 00:00:02,000\n这是全网最好的选择我们的产品销量第一名哦\n',
      'utf8',
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a loud, clipping, too long video with long captions and flagged words', async () => {
    const report = await qualityReport({
      videoPath: video,
      srtPath: srt,
      narrationWav: narration,
      aspect: '9:16',
      cues: [{ text: '这是全网最好的选择。' }, { text: '我们的产品销量第一名哦。' }],
      providers: { text: null, pictures: null, voice: 'espeak-ng' },
      fallbackShots: [2, 4],
      localShots: [0, 1],
      missingShots: [3],
      offlineVoice: true,
      shotCount: 5,
    });
    expect(report.loudnessLufs).toBeGreaterThan(-10);
    expect(report.truePeakDbtp).toBeGreaterThan(-1);
    expect(Math.abs(report.durationMs - 4000)).toBeLessThan(100);
    expect(Math.abs(report.narrationMs - 2000)).toBeLessThan(50);
    expect(report.flaggedWords).toEqual(['最好', '销量第一']);
    expect(report.longCaptions).toEqual([
      { text: '这是全网最好的选择我们的产品销量第一名哦', chars: 20, limit: 14 },
    ]);
    expect(report.problems.map((p) => p.kind)).toEqual([
      'loudness',
      'truePeak',
      'duration',
      'localPictures',
      'fallbackShots',
      'missingPictures',
      'offlineVoice',
      'longCaptions',
      'flaggedWords',
    ]);
    expect(report.problems.map((p) => p.action)).toEqual([
      undefined,
      undefined,
      undefined,
      'configureImages',
      'regeneratePictures',
      'regeneratePictures',
      'configureVoice',
      undefined,
      undefined,
    ]);
    expect(report).toEqual(
      expect.objectContaining({ localShots: [0, 1], missingShots: [3], offlineVoice: true }),
    );
    const message = (kind: string) => report.problems.find((p) => p.kind === kind)?.message;
    expect(message('loudness')).toMatch(/^响度 -?\d+\.\d LUFS，偏离目标 -16 LUFS$/);
    expect(message('truePeak')).toContain('高于 -1 dBTP');
    expect(message('duration')).toContain('结尾没有声音');
    expect(message('fallbackShots')).toBe(
      '第 3、5 镜使用了本地画面（图像服务出错），可重新生成画面',
    );
    expect(message('localPictures')).toBe(
      '第 1、2 镜是本地画面（未配置图像服务）：只有文字排版，不是生成的插画，配置图像服务后重新生成',
    );
    expect(message('missingPictures')).toBe(
      '第 4 镜没有自己的画面，用本地画面代替：只有文字排版，可重新生成画面',
    );
    expect(message('offlineVoice')).toBe(
      `配音由离线引擎 ${ESPEAK_ENGINE} 合成：声音机械，不适合直接发布，配置语音服务后重新生成`,
    );
    expect(message('longCaptions')).toContain('（20 字，上限 14）');
    expect(message('flaggedWords')).toBe('配音文案中有平台可能限流的词：「最好」、「销量第一」');
  });

  it('says what fixes local and missing pictures for shots, market pictures and merged segments', async () => {
    const files = {
      videoPath: video,
      srtPath: srt,
      narrationWav: narration,
      aspect: '9:16' as const,
      cues: [{ text: '一句话。' }],
      providers: { text: null, pictures: null, voice: null },
      fallbackShots: [],
    };
    const problem = async (input: Partial<Parameters<typeof qualityReport>[0]>, kind: string) =>
      (await qualityReport({ ...files, ...input })).problems.find((p) => p.kind === kind);
    // Local cards kept from before the image service was configured: redraw them now.
    expect(await problem({ localShots: [1], imagesConfigured: true }, 'localPictures')).toEqual({
      kind: 'localPictures',
      message:
        '第 2 镜是本地画面（绘制时未配置图像服务）：只有文字排版，不是生成的插画，现在可以重新生成画面',
      action: 'regeneratePictures',
    });
    // A market slot without the user's picture: uploading fills it, not an image service.
    expect(
      await problem({ missingShots: [0, 1], shotCount: 2, shotUnit: '图片' }, 'missingPictures'),
    ).toEqual({
      kind: 'missingPictures',
      message: '全部 2 张图片没有自己的画面，用本地画面代替：只有文字排版，上传图片后重新生成',
      action: 'regeneratePictures',
    });
    // A merge counts its segments.
    expect(
      (await problem({ missingShots: [2], shotCount: 3, shotUnit: '片段' }, 'missingPictures'))
        ?.message,
    ).toBe('第 3 个片段没有自己的画面，用本地画面代替：只有文字排版，可重新生成画面');
  });
});

describe('a comic video whose image provider fails one shot', () => {
  let app: FastifyInstance;
  let fake: FakeImages;
  let alice: Client;

  beforeAll(async () => {
    fake = await startFakeImages();
    fake.respond = (body) =>
      String(body.prompt).includes('苏柔')
        ? { type: 'error', status: 500, message: 'GPU exploded' }
        : { type: 'b64' };
    ({ app } = await createTestApp({
      videoTasks: renderingTasks(),
      images: fakeOpenAiImages(fake),
    }));
    alice = await signedInClient(app);
    const me = (await alice.get('/api/user/current')).data as { userId: number };
    await app.quotaService.grant(me.userId, 'comics', { gen: 1 });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('answers no report before the video is made', async () => {
    const saved = await alice.post('/api/video/save_text', { title: '草稿', text: '只是草稿。' });
    const { workId } = saved.data as { workId: number };
    const result = (await alice.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    expect(result.report).toBeNull();
    const works = (await alice.get('/api/video/get_works?type=0&pageIndex=1&pageSize=20')).data as {
      items: WorkSummary[];
    };
    expect(works.items.find((w) => w.workId === workId)?.reportProblems).toBe(0);
  });

  it('reports the fallback shot, and measures what an independent ffmpeg measures', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '山门',
      text: '林动走进山门。山门很旧。雨下着。苏柔撑伞等他。她笑了。钟声响起。两人进殿。',
    });
    const { workId } = saved.data as { workId: number };
    const started = await alice.post('/api/video/gen_video', { workId });
    const { taskId } = started.data as { taskId: string };
    const result = await finishedWork(alice, workId, taskId, 240_000);

    const report = result.report;
    if (!report) throw new Error('the finished video has no report');
    expect(report.fallbackShots).toEqual([1]);
    expect(report.problems).toContainEqual({
      kind: 'fallbackShots',
      message: '第 2 镜使用了本地画面（图像服务出错），可重新生成画面',
      action: 'regeneratePictures',
    });
    // The other shots are the service's: no local pictures; the voice is the offline one.
    expect(report.localShots).toEqual([]);
    expect(report.problems.map((p) => p.kind)).not.toContain('localPictures');
    expect(report.offlineVoice).toBe(true);
    const host = new URL(fake.apiUrl).host;
    expect(report.providers.pictures).toBe(`fake-image（${host}）、${LOCAL_FALLBACK_LABEL}`);
    expect(report.providers.voice).toEqual(expect.any(String));
    expect(report.providers.text).toBeNull();
    expect(report.flaggedWords).toEqual([]);

    // The same file measured here: loudness and true peak within 0.5 LU, length within 100 ms.
    const video = mediaFile(app, result.videoUrl);
    const measured = await independentLoudness(video);
    const probedMs = Number((await ffprobe(video)).format.duration) * 1000;
    const figures = {
      report: {
        lufs: report.loudnessLufs,
        peak: report.truePeakDbtp,
        ms: report.durationMs,
        narrationMs: report.narrationMs,
      },
      independent: { lufs: measured.lufs, peak: measured.peak, ms: probedMs },
    };
    // Printed so the figures can be quoted (the task's hand-off asks for them).
    console.log(`quality report vs independent ffmpeg: ${JSON.stringify(figures)}`);
    expect(Math.abs(report.loudnessLufs - measured.lufs)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(report.truePeakDbtp - measured.peak)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(report.durationMs - probedMs)).toBeLessThanOrEqual(100);
    // The compose normalises to -16 LUFS under -1.5 dBTP and lasts the narration's length.
    expect(report.problems.map((p) => p.kind)).not.toContain('loudness');
    expect(report.problems.map((p) => p.kind)).not.toContain('truePeak');
    expect(report.problems.map((p) => p.kind)).not.toContain('duration');
    expect(Math.abs(report.durationMs - report.narrationMs)).toBeLessThan(500);

    // The task keeps it: the result page opened by task id reads the same report.
    const byTask = (await alice.get(`/api/video/get_work_result?taskId=${taskId}`))
      .data as WorkResult;
    expect(byTask.report).toEqual(report);
    // My works counts the problems on the work's card.
    const works = (await alice.get('/api/video/get_works?type=0&pageIndex=1&pageSize=20')).data as {
      items: WorkSummary[];
    };
    expect(works.items.find((w) => w.workId === workId)?.reportProblems).toBe(
      report.problems.length,
    );
  });
});
