import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import type { FastifyInstance } from 'fastify';
import type { AudioClip, DedupPreview, SpeechClip } from '@kol/shared-sdk/contracts';
import { storesFrom, type MediaStores } from '../../src/storage';
import { runFfmpeg } from '../../src/video/engine/ffmpeg';
import { pictureFile } from '../../src/uploads/picture-file';
import { uploadedFile } from '../../src/video/pipelines/kit/work-inputs';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { filesBelow } from '../helpers/files';
import { multipart, signedInClient, type Client } from '../writing/helpers';

/**
 * Two API processes (two apps on the same database and the same bucket, each with its own
 * cache folders, as on two machines) and a worker's stores: what one stores, the others serve
 * and read; owner-only media stay owner-only.
 */
let s3: TestS3Server;
let first: FastifyInstance;
let second: FastifyInstance;
/** The stores of a worker process on a third machine. */
let worker: MediaStores;
let alice: Client;
let bob: Client;
let aliceId: number;

/** The folders of one process's data dir with an object store (only caches). */
function machine(name: string) {
  const root = path.join(testDataDir(), name);
  mkdirSync(root, { recursive: true });
  return {
    uploadsDir: path.join(root, 'cache', 'uploads'),
    mediaDir: path.join(root, 'cache', 'media'),
    releasesDir: path.join(root, 'cache', 'releases'),
  };
}

/** The keys of an area in the bucket, as any process lists them. */
const bucketKeys = async (area: 'uploads' | 'media') =>
  (await worker[area].list('')).map((entry) => entry.key);

const fetchAs = (app: FastifyInstance, client: Client | null, url: string, range?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: { ...(client ? client.headers : {}), ...(range ? { range } : {}) },
  });

const PNG = (() => {
  const canvas = createCanvas(32, 24);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#2d6cdf';
  ctx.fillRect(0, 0, 32, 24);
  return canvas.toBuffer('image/png');
})();

beforeAll(async () => {
  s3 = await startS3Server();
  const a = machine('api-a');
  const b = machine('api-b');
  ({ app: first } = await createTestApp({ ...a, mediaStore: s3.config }));
  ({ app: second } = await createTestApp({ ...b, mediaStore: s3.config }));
  worker = await storesFrom({ ...machine('worker'), mediaStore: s3.config });
  await Promise.all(Object.values(worker).map((store) => store.open()));
  alice = await signedInClient(first);
  bob = await signedInClient(first);
  aliceId = ((await alice.get('/api/user/current')).data as { userId: number }).userId;
  // Two apps, a bucket and a worker's stores: on a loaded 2-core machine (a full test run
  // beside other work) this setup once took longer than the default 30 s.
}, 120_000);
afterAll(async () => {
  await first?.close();
  await second?.close();
  await s3?.close();
});

describe('the API on an S3-compatible store', () => {
  let pictureUrl: string;

  it('stores an uploaded picture in the bucket, not in the uploads folder', async () => {
    const form = multipart('头像.png', PNG);
    const response = await first.inject({
      method: 'POST',
      url: '/api/file/upload_image',
      headers: { ...alice.headers, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(200);
    pictureUrl = (response.json() as { data: { url: string } }).data.url;
    expect(pictureUrl).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const name = pictureUrl.slice('/uploads/'.length);
    expect(await bucketKeys('uploads')).toContain(name);
    // The folder is only a cache there, and nothing is left in it after the put.
    expect(filesBelow(first.config.uploadsDir)).toEqual([]);
  });

  it('serves the upload from either API process', async () => {
    for (const app of [first, second]) {
      const served = await fetchAs(app, null, pictureUrl);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(PNG)).toBe(true);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await fetchAs(second, null, '/uploads/' + 'f'.repeat(32) + '.png')).statusCode).toBe(
      404,
    );
  });

  it('gives a worker on another machine a local copy of the upload', async () => {
    const file = await pictureFile(pictureUrl, aliceId, { stores: worker });
    expect(file).not.toBeNull();
    expect(file?.startsWith(path.join(testDataDir(), 'worker'))).toBe(true);
    expect(readFileSync(file ?? '').equals(PNG)).toBe(true);
    const same = await uploadedFile({ stores: worker }, pictureUrl);
    expect(same).toBe(file);
    expect(await uploadedFile({ stores: worker }, `/uploads/${'e'.repeat(32)}.png`)).toBeNull();
  });

  it('takes the upload and a stored picture as role references on the other process', async () => {
    await worker.media.putBytes(`${aliceId}/task-2/frames/shot-000.png`, PNG);
    const addRole = (client: Client, name: string, referenceImageUrl: string) =>
      second.inject({
        method: 'POST',
        url: '/api/role/add',
        headers: client.headers,
        payload: { name, description: '', referenceImageUrl },
      });
    expect((await addRole(alice, '上传的图', pictureUrl)).statusCode).toBe(200);
    const drawn = `/media/${aliceId}/task-2/frames/shot-000.png`;
    expect((await addRole(alice, '画的图', drawn)).statusCode).toBe(200);
    // Checked in the bucket without fetching anything into the process's cache.
    expect(filesBelow(second.config.mediaDir).filter((f) => f.startsWith(String(aliceId)))).toEqual(
      [],
    );
    for (const [name, url] of [
      ['别人的上传', pictureUrl],
      ['别人的图', drawn],
      ['没有的图', `/media/${aliceId}/task-2/frames/shot-999.png`],
    ] as const) {
      const refused = await addRole(name === '没有的图' ? alice : bob, name, url);
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as { msg: string }).msg).toBe('「参考图」不存在或不属于你');
    }
  });

  it('serves a stored media file to its owner only, with byte ranges, from either process', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
    const key = `${aliceId}/task-1/video.mp4`;
    await worker.media.putBytes(key, bytes);
    const url = `/media/${key}`;
    for (const app of [first, second]) {
      const ranged = await fetchAs(app, alice, url, 'bytes=100-199');
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-range']).toBe('bytes 100-199/4096');
      expect(ranged.headers['cache-control']).toBe('private, no-cache');
      expect(ranged.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
      const whole = await fetchAs(app, alice, url);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      // Another user, and no one signed in, learn nothing of it.
      expect((await fetchAs(app, bob, url)).statusCode).toBe(404);
      expect((await fetchAs(app, bob, url, 'bytes=0-9')).statusCode).toBe(404);
      expect((await fetchAs(app, null, url)).statusCode).toBe(401);
    }
    // The API streamed it: no copy was made in either process's cache.
    expect(filesBelow(first.config.mediaDir).filter((f) => f.startsWith(String(aliceId)))).toEqual(
      [],
    );
    expect(filesBelow(second.config.mediaDir).filter((f) => f.startsWith(String(aliceId)))).toEqual(
      [],
    );
    // A file being written is never served.
    await worker.media.putBytes(`${aliceId}/task-1/video.mp4.part`, bytes);
    expect((await fetchAs(first, alice, `${url}.part`)).statusCode).toBe(404);
  });

  it('plays a voice try made through one process through the other', async () => {
    const tried = await alice.post('/api/edit/tts_try', {
      text: '你好。',
      voiceId: 'espeak-cmn-f',
    });
    expect(tried.code).toBe(0);
    const clip = tried.data as AudioClip;
    expect(clip.audioUrl).toMatch(new RegExp(`^/media/${aliceId}/tts/[0-9a-f]{24}\\.wav$`));
    expect(await bucketKeys('media')).toContain(clip.audioUrl.slice('/media/'.length));
    // Its MP3 (tts_try's download) is in the bucket too, not left in the process's cache.
    const { mp3Url } = tried.data as SpeechClip;
    expect(await bucketKeys('media')).toContain(mp3Url.slice('/media/'.length));
    expect((await fetchAs(second, alice, mp3Url)).statusCode).toBe(200);
    const played = await fetchAs(second, alice, clip.audioUrl, 'bytes=0-11');
    expect(played.statusCode).toBe(206);
    expect(played.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect((await fetchAs(second, bob, clip.audioUrl)).statusCode).toBe(404);
    expect(filesBelow(path.join(first.config.mediaDir, String(aliceId)))).toEqual([]);
  });

  it('makes a dedup preview of a clip uploaded through the other process, served by either', async () => {
    const source = path.join(testDataDir(), 'preview-source.mp4');
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=15:duration=1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source],
    ]);
    const form = multipart('clip.mp4', readFileSync(source));
    const uploaded = await second.inject({
      method: 'POST',
      url: '/api/file/upload_media',
      headers: { ...alice.headers, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    const { url } = (uploaded.json() as { data: { url: string } }).data;
    const answer = await alice.post('/api/video/dedup_preview', {
      sourceVideoUrl: url,
      presets: { mirror: true },
      aspect: '16:9',
    });
    expect(answer.code).toBe(0);
    const preview = answer.data as DedupPreview;
    const keys = await bucketKeys('media');
    for (const frame of [preview.beforeUrl, preview.afterUrl]) {
      expect(keys).toContain(frame.slice('/media/'.length));
      const served = await fetchAs(second, alice, frame);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect((await fetchAs(second, bob, frame)).statusCode).toBe(404);
    }
    // The frames are not kept in the process that made them.
    expect(filesBelow(path.join(first.config.mediaDir, String(aliceId)))).toEqual([]);
  });

  it('deletes an uploaded clip from the bucket, for every process', async () => {
    const rate = 8_000;
    const samples = Buffer.alloc(rate * 2);
    for (let i = 0; i < rate; i++) {
      samples.writeInt16LE(Math.round(Math.sin(i / 5) * 8000), i * 2);
    }
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(36 + samples.length, 4);
    header.write('WAVEfmt ', 8, 'latin1');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(rate, 24);
    header.writeUInt32LE(rate * 2, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'latin1');
    header.writeUInt32LE(samples.length, 40);
    const form = multipart('tone.wav', Buffer.concat([header, samples]));
    const response = await second.inject({
      method: 'POST',
      url: '/api/file/upload_media',
      headers: { ...alice.headers, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(200);
    const { url, assetId } = (response.json() as { data: { url: string; assetId: number } }).data;
    const name = url.slice('/uploads/'.length);
    expect(await bucketKeys('uploads')).toContain(name);
    expect(filesBelow(second.config.uploadsDir)).toEqual([]);
    expect((await fetchAs(first, null, url)).statusCode).toBe(200);

    const deleted = await first.inject({
      method: 'GET',
      url: `/api/edit/delete?assetId=${assetId}`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect(await bucketKeys('uploads')).not.toContain(name);
    expect((await fetchAs(second, null, url)).statusCode).toBe(404);
  });
});
