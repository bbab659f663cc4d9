import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import type { FastifyInstance } from 'fastify';
import type {
  OperaScene,
  TaskRef,
  UsageLimits,
  VideoSettings,
  WorkResult,
} from '@kol/shared-sdk/contracts';
import { resolveFfmpegPath } from '../../src/video/engine/ffmpeg';
import { parseWav, type Pcm } from '../../src/providers/speech/wav';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { multipart, signedInClient, type Client } from '../writing/helpers';
import { expectVoicedEditor, editOneCaptionAndMerge } from './editing';
import {
  expectProvenVideo,
  finishedWork,
  frameDistance,
  greyFrame,
  mediaFile,
  parseSrt,
  renderingTasks,
  expectOfflineReport,
} from './proof';

// Real espeak-ng and ffmpeg, at a small output size so the render takes seconds.
jest.setTimeout(240_000);
const run = promisify(execFile);

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let aliceId = 0;
let photoUrl = '';
let clipUrl = '';

async function userIdOf(client: Client): Promise<number> {
  const id = ((await client.get('/api/user/current')).data as { userId?: unknown }).userId;
  if (typeof id !== 'number') throw new Error('no user id');
  return id;
}

async function uploadFile(client: Client, url: string, name: string, bytes: Buffer) {
  const body = multipart(name, bytes);
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { ...client.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  const answer = response.json() as { code: number; msg: string; data: { url: string } };
  if (answer.code !== 0) throw new Error(`upload refused: ${answer.msg}`);
  return answer.data.url;
}

/** A plain photo of one colour, as a phone picture would be (PNG). */
function photo(colour: string): Buffer {
  const canvas = createCanvas(320, 480);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 320, 480);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(100, 160, 120, 160);
  return canvas.toBuffer('image/png');
}

/** A 1-second clip with its own sound (which the drama must drop), made by ffmpeg's lavfi. */
async function clip(): Promise<Buffer> {
  const out = path.join(testDataDir(), 'opera-clip.mp4');
  await run(resolveFfmpegPath(), [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=240x320:rate=25:duration=1',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=1000:duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    out,
  ]);
  return readFile(out);
}

const realOperaLeft = async (client: Client) =>
  ((await client.get('/api/user/get_user_limit_info')).data as UsageLimits)
    .remainRealPeopleVideoCount;

async function dramaWork(
  client: Client,
  scenes: OperaScene[],
  extra: Partial<VideoSettings> = {},
): Promise<number> {
  const saved = await client.post('/api/video/save_text', { title: '短剧', text: '短剧', type: 8 });
  expect(saved.code).toBe(0);
  const { workId } = saved.data as { workId: number };
  const info = await client.edit('/api/video/save_video_info', {
    workId,
    settings: { aspect: '9:16', scenes, ...extra },
  });
  expect(info.code).toBe(0);
  return workId;
}

/** Polls until the task failed and answers its error. */
async function failedWith(client: Client, workId: number): Promise<string> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    if (data.state === 'succeeded') throw new Error('task succeeded but should have failed');
    return data.state === 'failed' ? String(data.error) : null;
  }, 120_000);
}

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  aliceId = await userIdOf(alice);
  await app.quotaService.grant(aliceId, 'realOpera', { gen: 4, merge: 1 });
  photoUrl = await uploadFile(alice, '/api/file/upload_image', 'scene.png', photo('#2d6cdf'));
  clipUrl = await uploadFile(alice, '/api/file/upload_media', 'scene.mp4', await clip());
});
afterAll(async () => {
  await app.close();
});

/** The samples of one cue of a narration. */
function cuePcm(pcm: Pcm, cue: { startMs: number; endMs: number }): Buffer {
  const block = pcm.channels * (pcm.bitsPerSample / 8);
  const at = (ms: number) => Math.round((ms * pcm.sampleRate) / 1000) * block;
  return pcm.data.subarray(at(cue.startMs), at(cue.endMs));
}

/** Zero crossings per second of 16-bit mono speech: a rough pitch/brightness measure. */
function crossingsPerSecond(samples: Buffer, sampleRate: number): number {
  let crossings = 0;
  for (let i = 2; i + 1 < samples.length; i += 2) {
    if (samples.readInt16LE(i - 2) < 0 !== samples.readInt16LE(i) < 0) crossings++;
  }
  return crossings / (samples.length / 2 / sampleRate);
}

describe('real-person short drama (type 8)', () => {
  it('speaks each character in its own voice over the scenes and proves the video', async () => {
    const before = await realOperaLeft(alice);
    const workId = await dramaWork(
      alice,
      [
        {
          mediaUrl: photoUrl,
          lines: [
            { speaker: '小明', text: '你好。' },
            { speaker: '小红', text: '你好。' },
          ],
        },
        {
          mediaUrl: clipUrl,
          lines: [
            { speaker: '小红', text: '今天的天气真不错，我们出去走走吧。' },
            { speaker: '小明', text: '好啊。' },
          ],
        },
      ],
      { musicId: -3 },
    );
    const started = await alice.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    // Spent from the real-person bucket.
    expect(await realOperaLeft(alice)).toBe(before - 1);
    const result = await finishedWork(alice, workId, taskId);
    expect(result.stages.map((s) => s.name)).toEqual(['script', 'voice', 'compose']);

    const task = await app.videoTasks.findTask(aliceId, taskId);
    const outputs = task?.outputs ?? {};
    // The chosen built-in track plays under the voices.
    expect(outputs.musicId).toBe(-3);
    const voices = outputs.voices as Record<string, { voiceId: string }>;
    // Nobody chose a voice: two default voices; 小明's given name leans male (明), 小红 the other.
    expect(voices['小明']?.voiceId).toBe('espeak-cmn-m');
    expect(voices['小红']?.voiceId).toBe('espeak-cmn-f');
    const speechMs = outputs.durationMs as number;
    const scenes = outputs.sceneDurations as number[];
    expect(scenes).toHaveLength(2);
    // The second scene holds its longer lines: it lasts longer than the first.
    expect(scenes[1] ?? 0).toBeGreaterThan(scenes[0] ?? 0);
    expect((scenes[0] ?? 0) + (scenes[1] ?? 0)).toBe(speechMs);

    const { cues } = await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs,
      spoken: ['小明：你好。', '小红：你好。', '小明：好啊。'],
    });
    expect(cues.map((c) => c.text)[0]).toBe('小明：你好。');
    // The user's scenes, no drawn pictures; both speakers' espeak-ng voices are named.
    expectOfflineReport(result, 0);

    // The same words in two voices: different audio, and the female voice is brighter. The
    // same words in the same voice (小明's two lines are cut from one batch) stay alike.
    const pcm = parseWav(await readFile(mediaFile(app, `/media/${String(outputs.narration)}`)));
    const said = outputs.cues as Array<{ text: string; startMs: number; endMs: number }>;
    const of = (text: string) => {
      const cue = said.find((c) => c.text === text);
      if (!cue) throw new Error(`no cue ${text}`);
      return cuePcm(pcm, cue);
    };
    const ming = of('小明：你好。');
    const hong = of('小红：你好。');
    expect(ming.equals(hong)).toBe(false);
    const zMing = crossingsPerSecond(ming, pcm.sampleRate);
    const zHong = crossingsPerSecond(hong, pcm.sampleRate);
    // 小红 speaks in the female voice now: hers is the brighter one.
    expect(zHong).toBeGreaterThan(zMing * 1.1);
  });

  it('opens a finished drama in the editor line by line over its scenes, and a merge keeps them', async () => {
    // A clip that brightens steadily through its second: a frame says its time.
    const ramp = path.join(testDataDir(), 'opera-ramp.mp4');
    await run(resolveFfmpegPath(), [
      ...['-y', '-loglevel', 'error', '-f', 'lavfi'],
      ...['-i', "nullsrc=s=240x320:r=25:d=1,geq=lum='64+128*T':cb=128:cr=128"],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ramp],
    ]);
    const rampUrl = await uploadFile(
      alice,
      '/api/file/upload_media',
      'ramp.mp4',
      await readFile(ramp),
    );
    const scenes = [
      {
        mediaUrl: photoUrl,
        lines: [
          { speaker: '小明', text: '你好。' },
          { speaker: '小红', text: '早上好。' },
        ],
      },
      {
        mediaUrl: rampUrl,
        lines: [
          { speaker: '小红', text: '今天的天气真不错，我们出去走走吧。' },
          { speaker: '小明', text: '好啊。' },
        ],
      },
    ];
    const workId = await dramaWork(alice, scenes);
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    const first = await finishedWork(alice, workId, taskId);

    // Before, the editor refused it: 「文案」为空 (the lines live in the scenes).
    const { cut, outputs } = await expectVoicedEditor(app, alice, aliceId, workId, taskId);
    const voices = outputs.voices as Record<string, { voiceId: string }>;
    const lines = scenes.flatMap((scene) => scene.lines);
    expect(cut.segments.map((s) => [s.text, s.speaker, s.voiceId])).toEqual(
      lines.map((line) => [line.text, line.speaker, voices[line.speaker]?.voiceId]),
    );
    // The photo under the first scene's lines; the clip under the second's, playing on.
    const clip = await app.repos.uploads.findOwnedByUrl(aliceId, rampUrl);
    expect(cut.segments.map((s) => [s.materialId, s.imageUrl ?? ''])).toEqual([
      [null, photoUrl],
      [null, photoUrl],
      [clip?.assetId, ''],
      [clip?.assetId, ''],
    ]);
    const cues = outputs.cues as Array<{ startMs: number }>;
    const clipMs = clip?.durationMs ?? 0;
    expect(cut.segments[2]?.startMs).toBe(0);
    expect(
      Math.abs(
        (cut.segments[3]?.startMs ?? 0) -
          (((cues[3]?.startMs ?? 0) - (cues[2]?.startMs ?? 0)) % clipMs),
      ),
    ).toBeLessThan(2);

    const { result } = await editOneCaptionAndMerge(app, alice, aliceId, workId, {
      index: 3,
      text: '好啊，走吧。',
    });
    // Captioned as the drama was, names and all; the edited line says its new words.
    const captions = async (r: WorkResult) =>
      parseSrt(await readFile(mediaFile(app, r.srtUrl), 'utf8')).map((cue) => cue.text);
    const before = await captions(first);
    expect(before.at(-1)).toBe('小明：好啊。');
    expect(await captions(result)).toEqual([...before.slice(0, -1), '小明：好啊，走吧。']);
    // The clip is where the drama had it, at the start of the edited line too (a frame of
    // the ramp off by its 40 ms is ~5 away; from the clip's start instead, ~70).
    for (const at of [(cues[2]?.startMs ?? 0) + 300, (cues[3]?.startMs ?? 0) + 200]) {
      const shown = frameDistance(
        await greyFrame(mediaFile(app, first.videoUrl), at, ['crop=iw:ih/2:0:0']),
        await greyFrame(mediaFile(app, result.videoUrl), at, ['crop=iw:ih/2:0:0']),
      );
      expect(shown).toBeLessThan(15);
    }
    await expectProvenVideo(app, result, { width: 216, height: 384 });
  });

  it('refuses a scene whose media is another user’s upload, keeping the count', async () => {
    const bobPhoto = await uploadFile(bob, '/api/file/upload_image', 'bob.png', photo('#aa3333'));
    const before = await realOperaLeft(alice);
    const workId = await dramaWork(alice, [
      { mediaUrl: photoUrl, lines: [{ speaker: '甲', text: '开场了。' }] },
      { mediaUrl: bobPhoto, lines: [{ speaker: '乙', text: '散场了。' }] },
    ]);
    expect((await alice.post('/api/video/gen_video', { workId })).code).toBe(0);
    expect(await failedWith(alice, workId)).toContain('第 2 个场景的素材不存在或不属于你');
    // The user's fault: no refund.
    expect(await realOperaLeft(alice)).toBe(before - 1);
    // And another user cannot see the work at all.
    expect((await bob.get(`/api/video/get_work_result?workId=${workId}`)).status).toBe(404);
  });

  it('gives the count back when the server loses a scene’s file', async () => {
    const lost = await uploadFile(alice, '/api/file/upload_image', 'lost.png', photo('#33aa33'));
    const workId = await dramaWork(alice, [
      { mediaUrl: lost, lines: [{ speaker: '甲', text: '这张照片会丢失。' }] },
    ]);
    await rm(path.join(app.config.uploadsDir, path.basename(lost)));
    const before = await realOperaLeft(alice);
    expect((await alice.post('/api/video/gen_video', { workId })).code).toBe(0);
    const error = await failedWith(alice, workId);
    expect(error).toContain('第 1 个场景的素材文件丢失');
    expect(await realOperaLeft(alice)).toBe(before);
  });
});
