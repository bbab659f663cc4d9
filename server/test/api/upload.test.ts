import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_UPLOAD_BYTES, type UploadedImage } from '@kol/shared-sdk/contracts';
import { PC, body, createTestApp, createUser, login, testDataDir } from '../helpers/test-app';

let app: FastifyInstance;
let cookie: string;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR fake png body'),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jfif body')]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x10, 0, 0, 0]),
  Buffer.from('WEBPVP8 body'),
]);

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
    expect(body(response).msg).toBe('「文件」格式不支持，请上传 JPEG、PNG 或 WebP 图片');
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
