import { readdirSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_UPLOAD_BYTES, type UploadedImage } from '@kol/shared-sdk/contracts';
import { PC, body, createTestApp, createUser, login, testDataDir } from '../helpers/test-app';
import { expectServing, watchHealth } from '../writing/health-watch';

let app: FastifyInstance;
let cookie: string;

/** Real pictures: every upload is decoded once before it is kept. */
function picture(type: 'image/png' | 'image/jpeg' | 'image/webp'): Buffer {
  const canvas = createCanvas(64, 48);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#2d6cdf';
  ctx.fillRect(0, 0, 64, 48);
  ctx.fillStyle = '#f5c542';
  ctx.fillRect(8, 8, 24, 16);
  // The overloads want a literal type each.
  if (type === 'image/png') return canvas.toBuffer('image/png');
  if (type === 'image/jpeg') return canvas.toBuffer('image/jpeg', 90);
  return canvas.toBuffer('image/webp', 90);
}
const PNG = picture('image/png');
const JPEG = picture('image/jpeg');
const WEBP = picture('image/webp');

/** A PNG chunk with its length and CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A valid-looking PNG of 50000x50000 grey pixels (2.5 gigapixels, 2.5 GB decoded) in a few KB:
 * its IDAT is the first rows of zeros, deflated.
 */
function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    PNG.subarray(0, 8),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(50_001 * 100))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The real JPEG with its frame header (SOF0) rewritten to claim 65000x65000. */
function jpegClaiming65000(): Buffer {
  const jpeg = Buffer.from(JPEG);
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  expect(sof).toBeGreaterThan(0);
  jpeg.writeUInt16BE(65_000, sof + 5);
  jpeg.writeUInt16BE(65_000, sof + 7);
  return jpeg;
}

/** A multipart/form-data body as a browser's FormData sends it. */
function form(field: string, filename: string, type: string, content: Buffer) {
  const boundary = '----kolTestBoundary7MA4YWxkTrZu0gW';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (
  content: Buffer,
  options: { filename?: string; type?: string; field?: string; session?: string | null } = {},
) => {
  const { payload, headers } = form(
    options.field ?? 'file',
    options.filename ?? 'avatar.png',
    options.type ?? 'image/png',
    content,
  );
  const session = options.session === undefined ? cookie : options.session;
  return app.inject({
    method: 'POST',
    url: '/api/file/upload_image',
    headers: { ...PC, ...headers },
    ...(session ? { cookies: { kol_session: session } } : {}),
    payload,
  });
};

const storedFiles = () => {
  try {
    return readdirSync(path.join(testDataDir(), 'uploads'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  ({ app } = await createTestApp());
  const { username, password } = await createUser(app);
  cookie = await login(app, username, password);
});
afterAll(async () => {
  await app.close();
});

describe('image upload', () => {
  let pngUrl: string;

  it('stores a PNG and serves it with a long cache', async () => {
    const response = await upload(PNG, { filename: '我的头像.png' });
    expect(response.statusCode).toBe(200);
    const { url } = body(response).data as { url: string };
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    pngUrl = url;

    const served = await app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('tells the type by the bytes: JPEG and WebP whatever they are called', async () => {
    const jpeg = await upload(JPEG, { filename: 'photo.png', type: 'image/png' });
    expect((body(jpeg).data as { url: string }).url).toMatch(/\.jpg$/);
    const webp = await upload(WEBP, { filename: 'x', type: 'application/octet-stream' });
    expect((body(webp).data as { url: string }).url).toMatch(/\.webp$/);
  });

  it('refuses a text file renamed .png', async () => {
    const before = storedFiles().length;
    const response = await upload(Buffer.from('just some text, not an image'), {
      filename: 'notes.png',
      type: 'image/png',
    });
    expect(response.statusCode).toBe(400);
    // The refusal names the file the user chose.
    expect(body(response).msg).toBe('「notes.png」格式不支持，请上传 JPEG、PNG 或 WebP 图片');
    expect(storedFiles()).toHaveLength(before);
  });

  it('refuses an image over 5 MB and keeps nothing of it', async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES)]);
    const response = await upload(big);
    expect(response.statusCode).toBe(413);
    expect(body(response).msg).toBe('图片不能超过 5 MB');
    expect(storedFiles()).toHaveLength(before);
    // Exactly 5 MB is still fine.
    const edge = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES - PNG.length)]);
    expect((await upload(edge)).statusCode).toBe(200);
  });

  it('needs a signed-in user and the platform header', async () => {
    const anonymous = await upload(PNG, { session: null });
    expect(anonymous.statusCode).toBe(401);
    const { payload, headers } = form('file', 'a.png', 'image/png', PNG);
    const noPlatform = await app.inject({
      method: 'POST',
      url: '/api/file/upload_image',
      headers,
      cookies: { kol_session: cookie },
      payload,
    });
    expect(noPlatform.statusCode).toBe(403);
  });

  it('wants the file in the field named file, as multipart', async () => {
    const wrongField = await upload(PNG, { field: 'image' });
    expect(wrongField.statusCode).toBe(400);
    const json = await app.inject({
      method: 'POST',
      url: '/api/file/upload_image',
      headers: PC,
      cookies: { kol_session: cookie },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(body(json).msg).toContain('multipart/form-data');
  });

  it('lists the user’s own uploads, newest first', async () => {
    const list = async (session: string, query = 'pageIndex=1&pageSize=20') =>
      body(
        await app.inject({
          method: 'GET',
          url: `/api/file/uploaded_imgs?${query}`,
          cookies: { kol_session: session },
        }),
      ).data as { items: UploadedImage[]; total: number };

    const mine = await list(cookie);
    expect(mine.total).toBe(4);
    expect(mine.items.at(-1)).toEqual({
      url: pngUrl,
      name: '我的头像.png',
      createTime: expect.any(String),
    });
    expect(mine.items.map((item) => item.name)).toEqual([
      'avatar.png',
      'x',
      'photo.png',
      '我的头像.png',
    ]);
    expect((await list(cookie, 'pageIndex=2&pageSize=3')).items).toHaveLength(1);

    const other = await createUser(app);
    expect(await list(await login(app, other.username, other.password))).toEqual({
      items: [],
      total: 0,
    });
    const anonymous = await app.inject({ method: 'GET', url: '/api/file/uploaded_imgs' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a picture claiming 50000x50000 from its header, without decoding it', async () => {
    const before = storedFiles().length;
    const stop = watchHealth(app);
    const response = await upload(pngBomb(), { filename: 'huge.png' });
    const health = await stop();
    console.log(
      `50000x50000 PNG: longest /healthz ${health.worstMs} ms over ${health.polls} polls`,
    );
    expect(response.statusCode).toBe(400);
    expect(body(response)).toEqual({
      code: 400,
      msg: '图片尺寸 50000×50000 过大：宽和高都不能超过 16384 像素，总像素不能超过 5000 万',
      data: null,
    });
    expectServing(health);
    const jpeg = await upload(jpegClaiming65000(), { filename: 'huge.jpg', type: 'image/jpeg' });
    expect(jpeg.statusCode).toBe(400);
    expect(body(jpeg).msg).toContain('图片尺寸 65000×65000 过大');
    expect(storedFiles()).toHaveLength(before);
  });

  it('refuses a picture whose header is right but whose pixels are not there', async () => {
    const before = storedFiles().length;
    const broken = [
      // The signature and a chunk name, and nothing of a picture.
      Buffer.concat([PNG.subarray(0, 8), Buffer.from('IHDR fake png body')]),
      // A real PNG and JPEG, cut in half.
      PNG.subarray(0, Math.floor(PNG.length / 2)),
      JPEG.subarray(0, Math.floor(JPEG.length / 2)),
    ];
    for (const content of broken) {
      const response = await upload(content, { filename: 'broken.png' });
      expect(response.statusCode).toBe(400);
      expect(body(response).msg).toBe('图片已损坏或不完整，无法读取，请重新保存后再上传');
    }
    expect(storedFiles()).toHaveLength(before);
  });

  it('answers 404 for names that are not stored uploads', async () => {
    for (const url of [
      '/uploads/nope.png',
      '/uploads/..%2fadmin-token',
      '/uploads/%2e%2e%2fadmin-token',
      '/uploads/a/b.png',
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});
