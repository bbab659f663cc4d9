import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import {
  ProjectType,
  estimateNarrationMs,
  narrationVoiceOf,
  type TaskRef,
  type UploadedMedia,
  type UsageLimits,
  type VideoSettings,
  type WorkResult,
} from '@kol/shared-sdk/contracts';
import { convertPipeline } from '../../src/video/pipelines/convert/pipeline';
import { createOpenAiTranscriber } from '../../src/providers/transcription';
import { runFfmpeg } from '../../src/video/engine/ffmpeg';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { multipart, signedInClient, type Client } from '../writing/helpers';
import { expectVoicedEditor, editOneCaptionAndMerge } from './editing';
import {
  coverFilters,
  expectEstimateHolds,
  expectProvenVideo,
  finishedWork,
  frameDistance,
  greyFrame,
  mediaFile,
  expectOfflineReport,
} from './proof';

// Real espeak-ng and ffmpeg, at a small output size so each render takes seconds.
jest.setTimeout(240_000);

const RENDER = { width: 216, height: 384 };
const SUBTITLES = ['小猫在窗边晒太阳', '它慢慢睡着了'];
const SPOKEN = ['今天我们去爬山。', '山上的风景很美。'];

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let aliceId = 0;

// ---------------------------------------------------------------------------------------------
// A loopback transcription service speaking OpenAI's protocol: `POST /v1/audio/transcriptions`
// with a multipart body (`file`, `model`, `response_format`), answering `verbose_json`
// ({ task, language, duration, text, segments[] }) or `{ error: { message, type, code } }`.

interface Part {
  filename?: string;
  data: Buffer;
}

function parseMultipart(body: Buffer, contentType: string): Record<string, Part> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const marker = Buffer.from(`--${boundary?.[1] ?? boundary?.[2] ?? ''}`);
  const parts: Record<string, Part> = {};
  let at = body.indexOf(marker);
  while (at >= 0) {
    const start = at + marker.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(marker, start);
    if (next < 0) break;
    const raw = body.subarray(start + 2, next - 2);
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, split).toString('utf8');
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    parts[name] = {
      ...(filename !== undefined ? { filename } : {}),
      data: raw.subarray(split + 4),
    };
    at = next;
  }
  return parts;
}

interface FakeTranscriber {
  baseUrl: string;
  /** Next answers; when empty, the transcript of SPOKEN. */
  script: Array<{ status: number; message: string }>;
  requests: Array<{ authorization?: string; fields: Record<string, string>; file: Part }>;
  close(): Promise<void>;
}

async function startFakeTranscriber(): Promise<FakeTranscriber> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
        send(404, { error: { message: 'not found', type: 'invalid_request_error', code: null } });
        return;
      }
      const parts = parseMultipart(Buffer.concat(chunks), req.headers['content-type'] ?? '');
      const fields = Object.fromEntries(
        Object.entries(parts)
          .filter(([name]) => name !== 'file')
          .map(([name, part]) => [name, part.data.toString('utf8')]),
      );
      const file = parts.file ?? { data: Buffer.alloc(0) };
      fake.requests.push({ authorization: req.headers.authorization, fields, file });
      const failure = fake.script.shift();
      if (failure) {
        send(failure.status, {
          error: { message: failure.message, type: 'invalid_request_error', code: null },
        });
        return;
      }
      if (!fields.model || file.data.length === 0) {
        send(400, {
          error: {
            message: 'file and model are required',
            type: 'invalid_request_error',
            code: null,
          },
        });
        return;
      }
      let start = 0;
      const segments = SPOKEN.map((text, id) => {
        const segment = {
          id,
          seek: 0,
          start,
          end: start + 1.8,
          text,
          tokens: [],
          temperature: 0,
          avg_logprob: -0.2,
          compression_ratio: 1.1,
          no_speech_prob: 0.01,
        };
        start += 2;
        return segment;
      });
      send(200, {
        task: 'transcribe',
        language: 'chinese',
        duration: start,
        text: SPOKEN.join(''),
        segments,
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeTranscriber = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    script: [],
    requests: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

// ---------------------------------------------------------------------------------------------

/** A landscape source (4 s) with sound and, when asked, an embedded mov_text track. */
async function sourceVideo(name: string, withSubtitles: boolean, seconds = 4): Promise<Buffer> {
  const dir = testDataDir();
  const out = path.join(dir, name);
  const srt = path.join(dir, `${name}.srt`);
  await writeFile(
    srt,
    `1\n00:00:00,200 --> 00:00:01,800\n${SUBTITLES[0]}\n\n2\n00:00:02,000 --> 00:00:03,800\n<i>${SUBTITLES[1]}</i>\n`,
  );
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', `testsrc=size=320x180:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=500:duration=${seconds}`],
    ...(withSubtitles ? ['-i', srt, '-map', '0:v', '-map', '1:a', '-map', '2:s'] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...(withSubtitles ? ['-c:s', 'mov_text'] : []),
    out,
  ]);
  return readFile(out);
}

async function uploadMedia(client: Client, name: string, bytes: Buffer): Promise<UploadedMedia> {
  const body = multipart(name, bytes);
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload_media',
    headers: { ...client.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  const answer = response.json() as { code: number; msg: string; data: UploadedMedia };
  if (answer.code !== 0) throw new Error(`upload refused: ${answer.msg}`);
  return answer.data;
}

async function userIdOf(client: Client): Promise<number> {
  return ((await client.get('/api/user/current')).data as { userId: number }).userId;
}

const convertLeft = async (client: Client) =>
  ((await client.get('/api/user/get_user_limit_info')).data as UsageLimits).remainXiGaoCount;

/** A reverse-video work with this text (possibly empty) and settings. */
async function convertWork(
  client: Client,
  text: string,
  settings: Partial<VideoSettings>,
): Promise<number> {
  const saved = await client.post('/api/video/save_text', { type: 3, title: '反推', text: '草稿' });
  expect(saved.code).toBe(0);
  const { workId } = saved.data as { workId: number };
  expect((await client.edit('/api/video/update_text', { workId, text })).code).toBe(0);
  const info = await client.edit('/api/video/save_video_info', {
    workId,
    settings: { aspect: '9:16', ...settings },
  });
  expect(info.code).toBe(0);
  return workId;
}

async function generate(client: Client, workId: number): Promise<string> {
  const started = await client.post('/api/video/gen_video', { workId });
  expect(started).toMatchObject({ code: 0 });
  return (started.data as TaskRef).taskId;
}

async function failedWith(client: Client, workId: number): Promise<string> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    if (data.state === 'succeeded') throw new Error('task succeeded but should have failed');
    return data.state === 'failed' ? String(data.error) : null;
  }, 120_000);
}

const outputsOf = async (userId: number, taskId: string) =>
  ((await app.videoTasks.findTask(userId, taskId))?.outputs ?? {}) as Record<string, unknown>;

let subtitled: UploadedMedia;
let plain: UploadedMedia;

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: {
      workInProcess: true,
      concurrency: 1,
      workDir: path.join(testDataDir(), 'tasks'),
      pollingIntervalSeconds: 0.5,
      renderSize: RENDER,
    },
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  aliceId = await userIdOf(alice);
  await app.quotaService.grant(aliceId, 'convert', { gen: 11, merge: 1 });
  await app.quotaService.grant(await userIdOf(bob), 'convert', { gen: 2 });
  subtitled = await uploadMedia(alice, 'with-subtitles.mp4', await sourceVideo('sub.mp4', true));
  plain = await uploadMedia(alice, 'plain.mp4', await sourceVideo('plain.mp4', false));
});
afterAll(async () => {
  await app.close();
});

describe('reverse video (type 3)', () => {
  it('takes the script from the subtitle track and renders it mirrored, trimmed, looped', async () => {
    const workId = await convertWork(alice, '', {
      sourceVideoUrl: subtitled.url,
      dedup: { mirror: true, trimHeadMs: 500, colorShift: 10, frameRate: 24 },
    });
    const taskId = await generate(alice, workId);
    const result = await finishedWork(alice, workId, taskId);
    expect(result.stages.map((s) => [s.name, s.state])).toEqual([
      ['script', 'succeeded'],
      ['voice', 'succeeded'],
      ['compose', 'succeeded'],
    ]);
    const outputs = await outputsOf(aliceId, taskId);
    expect(outputs).toMatchObject({
      scriptSource: 'subtitles',
      extractedFrom: 'subtitles',
      extractedScript: SUBTITLES.join('\n'),
      text: SUBTITLES.join('\n'),
      window: { startMs: 500, endMs: subtitled.durationMs },
    });
    await expectProvenVideo(app, result, {
      ...RENDER,
      speechMs: outputs.durationMs as number,
      spoken: SUBTITLES,
    });
    // The user's footage, no drawn pictures; the espeak-ng voice is named as a thing to fix.
    expectOfflineReport(result, 0);
  });

  it('uses the user’s rewrite over the extracted script, keeping the extracted one to show, as long as the page estimated', async () => {
    // Long enough for a loudness measurement (a clip of a second or two cannot be gated).
    const rewrite = '这是我改写的新文案。画面还是原来的画面，声音换成了新的配音。';
    const voice = { voiceId: 'espeak-cmn-m', speed: 0.9 };
    const workId = await convertWork(alice, rewrite, { sourceVideoUrl: subtitled.url, ...voice });
    const taskId = await generate(alice, workId);
    const result = await finishedWork(alice, workId, taskId);
    const outputs = await outputsOf(aliceId, taskId);
    expect(outputs).toMatchObject({
      scriptSource: 'work',
      text: rewrite,
      extractedScript: SUBTITLES.join('\n'),
    });
    const { durationMs } = await expectProvenVideo(app, result, {
      ...RENDER,
      speechMs: outputs.durationMs as number,
      spoken: ['这是我改写的新文案', '声音换成了新的配音'],
    });
    // The source's clip is looped to the new voice: the page's 预计时长 of the script holds.
    const estimate = estimateNarrationMs(rewrite, {
      voiceId: narrationVoiceOf(ProjectType.convert, voice.voiceId),
      speed: voice.speed,
    });
    expectEstimateHolds(estimate, durationMs);
  });

  it('without subtitles, a transcription service or a script: fails asking for one, no refund', async () => {
    const before = await convertLeft(alice);
    const workId = await convertWork(alice, '', { sourceVideoUrl: plain.url });
    await generate(alice, workId);
    expect(await failedWith(alice, workId)).toBe(
      '「文案」阶段失败：该视频没有字幕轨，也未配置语音转写服务，请在「文案」中填写脚本',
    );
    // The user's to fix: the count stays spent.
    expect(await convertLeft(alice)).toBe(before - 1);
  });

  it('refuses another user’s upload, and an upload that is not a video, as the source', async () => {
    const bobWork = await convertWork(bob, '别人的视频。', { sourceVideoUrl: subtitled.url });
    await generate(bob, bobWork);
    expect(await failedWith(bob, bobWork)).toBe(
      '「文案」阶段失败：「原视频」不存在或不属于你，请重新上传',
    );
    const mp3 = path.join(testDataDir(), 'voice.mp3');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=d=2', '-c:a', 'libmp3lame', mp3]);
    const audio = await uploadMedia(alice, 'voice.mp3', await readFile(mp3));
    const audioWork = await convertWork(alice, '一段文案。', { sourceVideoUrl: audio.url });
    await generate(alice, audioWork);
    expect(await failedWith(alice, audioWork)).toBe(
      '「文案」阶段失败：「原视频」不存在或不属于你，请重新上传',
    );
    const missing = await convertWork(alice, '一段文案。', {});
    await generate(alice, missing);
    expect(await failedWith(alice, missing)).toBe('「文案」阶段失败：请先上传「原视频」');
  });

  it('opens a finished video in the editor with its voices over its footage, and a merge keeps them', async () => {
    // Longer than the narration: the video shows the source once through, from 0.5 s at 1.25×.
    const bytes = await sourceVideo('long.mp4', false, 16);
    const long = await uploadMedia(alice, 'long.mp4', bytes);
    const sourcePath = path.join(testDataDir(), 'long.mp4');
    const sentences = ['第一句是开头。', '第二句在中间。', '第三句要改写，这一句比较长一些。'];
    const workId = await convertWork(alice, sentences.join(''), {
      sourceVideoUrl: long.url,
      dedup: { mirror: true, speed: 1.25, trimHeadMs: 500 },
    });
    /** Where the source is at a time of the video. */
    const sourceAt = (ms: number) => 500 + ms * 1.25;
    const taskId = await generate(alice, workId);
    const first = await finishedWork(alice, workId, taskId);

    const { cut, outputs } = await expectVoicedEditor(app, alice, aliceId, workId, taskId);
    expect(cut.segments.map((s) => s.text)).toEqual(sentences);
    // Each sentence over the uploaded source, from where the video was showing it then.
    const cues = outputs.cues as Array<{ startMs: number }>;
    for (const [i, segment] of cut.segments.entries()) {
      expect(segment.materialId).toBe(long.assetId);
      const at = sourceAt(i === 0 ? 0 : (cues[i]?.startMs ?? -1));
      expect(Math.abs(segment.startMs - at)).toBeLessThan(2);
      expect(segment.endMs).toBeGreaterThan(at + (segment.audioDurationMs ?? 0) * 1.25);
    }

    /** The video's middle frame against the source's of that moment, mirrored and not. */
    const middle = async (result: WorkResult) => {
      const ms = result.durationMs / 2;
      const shown = await greyFrame(mediaFile(app, result.videoUrl), ms);
      const source = (filters: string[]) => greyFrame(sourcePath, sourceAt(ms), filters);
      return {
        mirrored: frameDistance(shown, await source([...coverFilters(RENDER), 'hflip'])),
        plain: frameDistance(shown, await source(coverFilters(RENDER))),
      };
    };
    const before = await middle(first);
    expect(before.mirrored).toBeLessThan(10);

    // The last sentence rewritten (shorter): the merge speaks it alone and keeps the footage.
    const { result } = await editOneCaptionAndMerge(app, alice, aliceId, workId, {
      index: 2,
      text: '第三句改短了。',
    });
    const after = await middle(result);
    // Before the fix the merge drew local frames instead, 86 to 93 away from the source.
    expect(after.mirrored).toBeLessThan(before.mirrored + 3);
    // Still de-duplicated: the unmirrored source is far from what it shows.
    expect(after.plain).toBeGreaterThan(after.mirrored + 10);
    await expectProvenVideo(app, result, { ...RENDER, spoken: ['第三句改短了'] });
  });

  describe('with a transcription service configured', () => {
    let fake: FakeTranscriber;
    beforeAll(async () => {
      fake = await startFakeTranscriber();
      // The production registration reads AppConfig.transcribe through app.providers;
      // here the same pipeline is registered over it with the fake service.
      app.videoPipelines.register(
        ProjectType.convert,
        convertPipeline({
          repos: app.repos,
          mediaDir: app.config.mediaDir,
          stores: app.stores,
          renderSize: RENDER,
          providers: {
            ...app.providers,
            transcription: createOpenAiTranscriber({
              baseUrl: fake.baseUrl,
              apiKey: 'sk-test',
              model: 'whisper-1',
              timeoutMs: 20_000,
            }),
          },
        }),
      );
    });
    afterAll(async () => {
      await fake.close();
    });

    it('takes the script from the transcription of a video without subtitles', async () => {
      const workId = await convertWork(alice, '', {
        sourceVideoUrl: plain.url,
        dedup: { cropZoom: 0.1, speed: 1.2, overlay: true },
      });
      const taskId = await generate(alice, workId);
      const result = await finishedWork(alice, workId, taskId);
      const request = fake.requests.at(-1);
      expect(request?.authorization).toBe('Bearer sk-test');
      expect(request?.fields).toMatchObject({
        model: 'whisper-1',
        response_format: 'verbose_json',
      });
      // The speech as a small MP3 (an ID3 tag or an MPEG frame first).
      const head = request?.file.data.subarray(0, 3);
      expect(head?.toString('latin1') === 'ID3' || head?.[0] === 0xff).toBe(true);
      const outputs = await outputsOf(aliceId, taskId);
      expect(outputs).toMatchObject({
        scriptSource: 'transcription',
        transcriptionEngine: `whisper-1（127.0.0.1:${new URL(fake.baseUrl).port}）`,
        extractedScript: SPOKEN.join('\n'),
      });
      await expectProvenVideo(app, result, {
        ...RENDER,
        speechMs: outputs.durationMs as number,
        spoken: SPOKEN.map((s) => s.replace('。', '')),
      });
    });

    it('a refused key fails naming the service, and gives the count back', async () => {
      fake.script.push({ status: 401, message: 'Incorrect API key provided' });
      const before = await convertLeft(alice);
      const workId = await convertWork(alice, '', { sourceVideoUrl: plain.url });
      await generate(alice, workId);
      const error = await failedWith(alice, workId);
      expect(error).toContain('语音转写服务 whisper-1（127.0.0.1:');
      expect(error).toContain('TRANSCRIBE_API_KEY');
      expect(await waitFor(async () => (await convertLeft(alice)) === before)).toBe(true);
    });
  });
});
