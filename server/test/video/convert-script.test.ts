import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { ConvertScript, DedupPreview, UploadedMedia } from '@kol/shared-sdk/contracts';
import { runFfmpeg } from '../../src/video/engine/ffmpeg';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { multipart, signedInClient, type Client } from '../writing/helpers';

jest.setTimeout(60_000);

let app: FastifyInstance;
let alice: Client;
let bob: Client;

async function clip(name: string, subtitles: string[] | null): Promise<Buffer> {
  const out = path.join(testDataDir(), name);
  const srt = `${out}.srt`;
  if (subtitles) {
    await writeFile(
      srt,
      subtitles
        .map((text, i) => `${i + 1}\n00:00:0${i},100 --> 00:00:0${i},900\n${text}\n`)
        .join('\n'),
    );
  }
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=15:duration=2'],
    ...(subtitles ? ['-i', srt, '-map', '0:v', '-map', '1:s', '-c:s', 'mov_text'] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
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

beforeAll(async () => {
  ({ app } = await createTestApp());
  alice = await signedInClient(app);
  bob = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
});

describe('POST /api/video/convert_script', () => {
  it('reads the script from the subtitle track, one cue a line', async () => {
    const media = await uploadMedia(
      alice,
      'sub.mp4',
      await clip('sub.mp4', ['小猫晒太阳', '它睡着了']),
    );
    const answer = await alice.post('/api/video/convert_script', { sourceVideoUrl: media.url });
    expect(answer.code).toBe(0);
    expect(answer.data as ConvertScript).toEqual({
      script: '小猫晒太阳\n它睡着了',
      from: 'subtitles',
      engine: null,
      missing: null,
    });
  });

  it('says why there is none without subtitles or a transcription service', async () => {
    const media = await uploadMedia(alice, 'plain.mp4', await clip('plain.mp4', null));
    const answer = await alice.post('/api/video/convert_script', { sourceVideoUrl: media.url });
    expect(answer.data as ConvertScript).toEqual({
      script: '',
      from: 'none',
      engine: null,
      missing: '该视频没有字幕轨，也未配置语音转写服务，请在「文案」中填写脚本',
    });
  });

  it('refuses another user’s upload as if it did not exist', async () => {
    const media = await uploadMedia(alice, 'own.mp4', await clip('own.mp4', ['我的视频']));
    const answer = await bob.post('/api/video/convert_script', { sourceVideoUrl: media.url });
    expect(answer.code).not.toBe(0);
    expect(answer.msg).toBe('「原视频」不存在或不属于你，请重新上传');
  });
});

/** A served JPEG as a small grey picture (one byte a pixel), optionally mirrored. */
async function grey(client: Client, url: string, mirror = false): Promise<Buffer> {
  const response = await app.inject({ method: 'GET', url, headers: client.headers });
  expect(response.statusCode).toBe(200);
  const file = path.join(testDataDir(), `frame-${Math.random().toString(36).slice(2)}.jpg`);
  await writeFile(file, response.rawPayload);
  const raw = `${file}.gray`;
  await runFfmpeg([
    ...['-i', file, '-vf', `scale=32:32${mirror ? ',hflip' : ''},format=gray`],
    ...['-f', 'rawvideo', '-y', raw],
  ]);
  return readFile(raw);
}

const meanDifference = (a: Buffer, b: Buffer) =>
  a.reduce((sum, value, i) => sum + Math.abs(value - (b[i] ?? 0)), 0) / a.length;

describe('de-duplication presets per user', () => {
  it('are {} before any, saved and read back per user, and refused out of range', async () => {
    expect((await alice.get('/api/video/dedup_presets')).data).toEqual({
      presets: {},
      revision: 0,
    });
    const presets = { mirror: true, speed: 1.1, trimHeadMs: 500 };
    expect((await alice.edit('/api/video/save_dedup_presets', { presets })).code).toBe(0);
    expect((await alice.get('/api/video/dedup_presets')).data).toEqual({ presets, revision: 1 });
    expect((await bob.get('/api/video/dedup_presets')).data).toEqual({ presets: {}, revision: 0 });
    expect(
      (await alice.edit('/api/video/save_dedup_presets', { presets: { overlay: true } })).code,
    ).toBe(0);
    expect((await alice.get('/api/video/dedup_presets')).data).toEqual({
      presets: { overlay: true },
      revision: 2,
    });
    // A save based on the revision another tab has moved past is refused, and changes nothing.
    const stale = await alice.post('/api/video/save_dedup_presets', {
      presets: { mirror: false },
      revision: 1,
    });
    expect(stale).toMatchObject({
      status: 412,
      code: 412,
      msg: '去重设置已在其他页面修改，请刷新后再编辑',
    });
    expect(
      ((await alice.get('/api/video/dedup_presets')).data as { presets: object }).presets,
    ).toEqual({
      overlay: true,
    });
    const refused = await alice.edit('/api/video/save_dedup_presets', {
      presets: { cropZoom: 0.5 },
    });
    expect(refused.code).not.toBe(0);
    expect(refused.msg).toContain('裁剪放大');
  });
});

describe('POST /api/video/dedup_preview', () => {
  it('answers the frame before and after the presets: the mirror is the source flipped', async () => {
    const media = await uploadMedia(alice, 'p.mp4', await clip('p.mp4', null));
    const answer = await alice.post('/api/video/dedup_preview', {
      sourceVideoUrl: media.url,
      presets: { mirror: true },
      aspect: '16:9',
    });
    expect(answer.code).toBe(0);
    const preview = answer.data as DedupPreview;
    expect(preview.atMs).toBe(0);
    const before = await grey(alice, preview.beforeUrl);
    const after = await grey(alice, preview.afterUrl);
    const flipped = await grey(alice, preview.beforeUrl, true);
    expect(meanDifference(after, flipped)).toBeLessThan(8);
    expect(meanDifference(after, before)).toBeGreaterThan(3 * meanDifference(after, flipped));
    // Another user cannot read them, nor preview this upload.
    const other = await app.inject({ method: 'GET', url: preview.afterUrl, headers: bob.headers });
    expect(other.statusCode).toBe(404);
    const refused = await bob.post('/api/video/dedup_preview', {
      sourceVideoUrl: media.url,
      presets: {},
    });
    expect(refused.msg).toBe('「原视频」不存在或不属于你，请重新上传');
  });
});
