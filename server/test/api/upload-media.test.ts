import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { UploadedImage, UploadedMedia } from '@kol/shared-sdk/contracts';
import { FfmpegTimeout, probeWithFfmpeg, runFfmpeg } from '../../src/video/engine/ffmpeg';
import { MediaRefused, storeMedia } from '../../src/uploads/media';
import { PC, createTestApp, testDataDir } from '../helpers/test-app';
import { multipart, signedInClient, type Client } from '../writing/helpers';

// Real ffmpeg makes and probes every file; the largest one is a 31 MB WAV.
jest.setTimeout(120_000);

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let dir: string;
const files: Record<string, Buffer> = {};

async function make(name: string, args: string[]): Promise<void> {
  const out = path.join(dir, name);
  await runFfmpeg([...args, out]);
  files[name] = await readFile(out);
}

async function userIdOf(client: Client): Promise<number> {
  const id = ((await client.get('/api/user/current')).data as { userId: number }).userId;
  return id;
}

async function upload(
  client: Client,
  fileName: string,
  bytes: Uint8Array,
  fields: Record<string, string> = {},
) {
  const form = multipart(fileName, bytes, 'file', fields);
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload_media',
    headers: { ...client.headers, 'content-type': form.contentType },
    payload: form.payload,
  });
  return {
    status: response.statusCode,
    ...(response.json() as { code: number; msg: string; data: unknown }),
  };
}

/** Files in the uploads dir, temporary ones included: a refusal must leave none behind. */
const stored = () => {
  try {
    return readdirSync(path.join(testDataDir(), 'uploads'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-media-'));
  const lavfi = (source: string) => ['-f', 'lavfi', '-i', source];
  await make('clip.mp4', [
    ...lavfi('testsrc=s=160x120:r=15:d=2'),
    ...lavfi('sine=frequency=440:d=2'),
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
  ]);
  await make('clip.webm', [
    ...lavfi('testsrc=s=160x120:r=15:d=1'),
    ...['-c:v', 'libvpx', '-b:v', '200k'],
  ]);
  // Sound alone in an MP4 container: a container that may hold video, holding none.
  await make('sound.mp4', [...lavfi('sine=frequency=550:d=1'), '-c:a', 'aac']);
  await make('voice.mp3', [
    ...lavfi('sine=frequency=330:d=3'),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '32k',
  ]);
  // 10 minutes and a second: one second too long, small at 8 kb/s.
  await make('long.mp3', [
    ...lavfi('anullsrc=r=8000:cl=mono'),
    ...['-t', '601', '-c:a', 'libmp3lame', '-b:a', '8k'],
  ]);
  // Over the 30 MB audio limit (48 kHz stereo 16-bit is 192 kB/s) yet under the video one.
  await make('big.wav', [...lavfi('sine=frequency=200:sample_rate=48000:d=165'), '-ac', '2']);
  ({ app } = await createTestApp());
  alice = await signedInClient(app);
  bob = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('upload_media', () => {
  let video: UploadedMedia;

  it('stores an MP4, probes its length and serves it', async () => {
    const answer = await upload(alice, '原视频.mp4', files['clip.mp4'] as Buffer);
    expect(answer).toMatchObject({ status: 200, code: 0 });
    video = answer.data as UploadedMedia;
    expect(video).toEqual({
      url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\.mp4$/),
      assetId: expect.any(Number),
      kind: 'video',
      durationMs: expect.any(Number),
      name: '原视频.mp4',
    });
    expect(Math.abs(video.durationMs - 2000)).toBeLessThan(150);

    const served = await app.inject({ method: 'GET', url: video.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('video/mp4');
    expect(served.rawPayload.equals(files['clip.mp4'] as Buffer)).toBe(true);
  });

  it('tells the container by its bytes, not by the name', async () => {
    const webm = await upload(alice, 'recording.mp4', files['clip.webm'] as Buffer);
    expect(webm.data).toMatchObject({ kind: 'video', url: expect.stringMatching(/\.webm$/) });
    const mp3 = await upload(alice, 'voice', files['voice.mp3'] as Buffer);
    expect(mp3.status).toBe(200);
    const audio = mp3.data as UploadedMedia;
    expect(audio).toMatchObject({ kind: 'audio', name: 'voice' });
    expect(audio.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.mp3$/);
    expect(Math.abs(audio.durationMs - 3000)).toBeLessThan(150);
  });

  it('answers a file sent again as the asset it already is: 我的上传 lists it once', async () => {
    const before = stored();
    // The same clip from another page (a drama scene, a background) under another name.
    const again = await upload(alice, '场景一.mp4', files['clip.mp4'] as Buffer);
    expect(again).toMatchObject({ status: 200, code: 0 });
    expect(again.data).toEqual(video);
    expect(stored()).toEqual(before);
    const mine = await alice.get('/api/cut_video/get_system_material_list?tagId=100&pageSize=50');
    const items = (mine.data as { items: { materialId: number }[] }).items;
    expect(items.filter((m) => m.materialId === video.assetId)).toHaveLength(1);
    expect(items).toHaveLength(new Set(items.map((m) => m.materialId)).size);

    // Another user's upload of the same bytes is theirs, not alice's asset.
    const carol = await signedInClient(app);
    const theirs = (await upload(carol, 'clip.mp4', files['clip.mp4'] as Buffer))
      .data as UploadedMedia;
    expect(theirs.assetId).not.toBe(video.assetId);
    expect(theirs.url).not.toBe(video.url);

    // Two uploads of one new file at once make one asset and leave one file.
    const beforeTwo = stored();
    const [one, two] = await Promise.all([
      upload(alice, 'a.mp3', files['voice.mp3'] as Buffer),
      upload(alice, 'b.mp3', files['voice.mp3'] as Buffer),
    ]);
    expect((one.data as UploadedMedia).assetId).toBe((two.data as UploadedMedia).assetId);
    expect(stored().length).toBeLessThanOrEqual(beforeTwo.length + 1);
  });

  it('refuses a text file named .mp4, naming it, and keeps nothing of it', async () => {
    const before = stored();
    const answer = await upload(alice, 'movie.mp4', Buffer.from('not a video at all, just text'));
    expect(answer.status).toBe(400);
    expect(answer.msg).toBe(
      '「movie.mp4」格式不支持，请上传 MP4、MOV、WebM、MKV 视频或 MP3、M4A、WAV、OGG 音频',
    );
    expect(stored()).toEqual(before);
  });

  it('refuses for a page that takes video only with video formats only, naming the file', async () => {
    const before = stored();
    const text = await upload(alice, '片头.mov', Buffer.from('not a video at all, just text'), {
      kind: 'video',
    });
    expect(text).toMatchObject({
      status: 400,
      msg: '「片头.mov」格式不支持，请上传 MP4、MOV、WebM、MKV 视频',
    });
    // An audio file is refused before it is kept: a background never leaves one behind.
    const audio = await upload(alice, 'voice.mp3', files['voice.mp3'] as Buffer, {
      kind: 'video',
    });
    expect(audio).toMatchObject({
      status: 400,
      msg: '「voice.mp3」是音频，请上传 MP4、MOV、WebM、MKV 视频',
    });
    const sound = await upload(alice, 'sound.mp4', files['sound.mp4'] as Buffer, {
      kind: 'video',
    });
    expect(sound).toMatchObject({
      status: 400,
      msg: '「sound.mp4」中没有画面，请上传 MP4、MOV、WebM、MKV 视频',
    });
    expect(stored()).toEqual(before);
    const odd = await upload(alice, 'clip.mp4', files['clip.mp4'] as Buffer, { kind: 'image' });
    expect(odd).toMatchObject({ status: 400, msg: '「kind」只能是 video 或 audio' });
    // A video is taken as before.
    const ok = await upload(alice, '原视频.mp4', files['clip.mp4'] as Buffer, { kind: 'video' });
    expect(ok).toMatchObject({ status: 200, data: { kind: 'video' } });
  });

  it('refuses a file that looks like an MP4 but that ffmpeg cannot read', async () => {
    const before = stored();
    const fake = Buffer.concat([
      (files['clip.mp4'] as Buffer).subarray(0, 32),
      Buffer.alloc(4096, 7),
    ]);
    const answer = await upload(alice, 'broken.mp4', fake);
    expect(answer.status).toBe(400);
    expect(answer.msg).toBe('无法读取该视频文件，文件可能已损坏');
    expect(stored()).toEqual(before);
  });

  it('refuses a recording over 10 minutes', async () => {
    const before = stored();
    const answer = await upload(alice, 'long.mp3', files['long.mp3'] as Buffer);
    expect(answer.status).toBe(400);
    expect(answer.msg).toBe('音频时长不能超过 10 分钟，请剪短后再上传');
    expect(stored()).toEqual(before);
  });

  it('kills a probe that does not finish within its time limit', async () => {
    // A named pipe nobody writes to: ffmpeg really blocks reading it, as on a stalling input.
    const fifo = path.join(dir, 'never-ending');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    const error = await probeWithFfmpeg(fifo, { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegTimeout);
    expect(performance.now() - started).toBeLessThan(3000);
    // And the process is gone, not left blocked on the pipe.
    const stillRunning: string[] = [];
    for (const pid of await readdir('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes(fifo)) stillRunning.push(pid);
    }
    expect(stillRunning).toEqual([]);
  });

  it('refuses an upload whose probe runs past the time limit, keeping nothing', async () => {
    const target = await mkdtemp(path.join(os.tmpdir(), 'kol-media-timeout-'));
    try {
      const error = await storeMedia(
        Readable.from([files['clip.mp4'] as Buffer]),
        target,
        () => false,
        { timeoutMs: 1 },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MediaRefused);
      expect((error as MediaRefused).status).toBe(400);
      expect((error as MediaRefused).message).toBe(
        '读取该视频文件超过 0.001 秒仍未完成，文件可能已损坏',
      );
      expect(await readdir(target)).toEqual([]);
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  });

  it('has its own size limit: audio over 30 MB is refused with 413, not the image limit', async () => {
    const before = stored();
    const answer = await upload(alice, 'big.wav', files['big.wav'] as Buffer);
    expect(answer.status).toBe(413);
    expect(answer.msg).toBe('音频不能超过 30 MB');
    expect(stored()).toEqual(before);
  });

  it('needs a signed-in user and a multipart body', async () => {
    const form = multipart('clip.mp4', files['clip.mp4'] as Buffer);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/file/upload_media',
      headers: { ...PC, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(anonymous.statusCode).toBe(401);
    const json = await alice.post('/api/file/upload_media', { file: 'x' });
    expect(json.status).toBe(400);
    expect(json.msg).toContain('multipart/form-data');
  });

  it('keeps each user’s assets their own, and the image list images only', async () => {
    const aliceId = await userIdOf(alice);
    const bobId = await userIdOf(bob);
    expect(await app.uploads.findOwned(bobId, video.assetId)).toBeNull();
    expect(await app.uploads.findOwnedByUrl(bobId, video.url)).toBeNull();
    expect(await app.uploads.findOwnedByUrl(aliceId, video.url)).toMatchObject({
      assetId: video.assetId,
      kind: 'video',
      durationMs: video.durationMs,
    });
    expect(
      (await app.uploads.listByKind(aliceId, 'video', { pageIndex: 1, pageSize: 10 })).total,
    ).toBe(2);
    expect(
      (await app.uploads.listByKind(bobId, 'video', { pageIndex: 1, pageSize: 10 })).total,
    ).toBe(0);
    const images = (await alice.get('/api/file/uploaded_imgs')).data as {
      items: UploadedImage[];
      total: number;
    };
    expect(images).toEqual({ items: [], total: 0 });

    expect(await app.uploads.deleteOwned(bobId, video.assetId)).toBeNull();
    expect(await app.uploads.deleteOwned(aliceId, video.assetId)).toMatchObject({ url: video.url });
    expect(await app.uploads.findOwned(aliceId, video.assetId)).toBeNull();
  });
});
