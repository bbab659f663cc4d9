import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesFrom, type MediaStore } from '../../src/storage';
import { LocalStore } from '../../src/storage/local-store';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';

let s3: TestS3Server;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'kol-store-test-'));

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const kinds: Array<[string, () => MediaStore | Promise<MediaStore>]> = [
  ['a local folder', () => new LocalStore(mkdtempSync(path.join(scratch, 'local-')))],
  [
    'an S3-protocol server',
    async () =>
      (
        await storesFrom({
          mediaStore: { ...s3.config, prefix: `run-${Math.random().toString(36).slice(2)}/` },
          mediaDir: mkdtempSync(path.join(scratch, 'cache-')),
          uploadsDir: '',
          releasesDir: '',
        })
      ).media,
  ],
];

describe.each(kinds)('the media store on %s', (_kind, makeStore) => {
  let store: MediaStore;
  beforeAll(async () => {
    store = await makeStore();
  });

  it('keeps a file and bytes under their keys, and tells their size', async () => {
    const file = path.join(scratch, 'video.mp4');
    writeFileSync(file, Buffer.alloc(10_000, 7));
    await store.putFile('12/task-1/video.mp4', file);
    await store.putBytes('12/task-1/字幕.srt', '1\n00:00:00,000 --> 00:00:01,000\n你好\n');
    expect((await store.stat('12/task-1/video.mp4'))?.size).toBe(10_000);
    expect((await store.stat('12/task-1/字幕.srt'))?.size).toBe(
      Buffer.byteLength('1\n00:00:00,000 --> 00:00:01,000\n你好\n'),
    );
    expect(await store.stat('12/task-1/missing.mp4')).toBeNull();
  });

  it('reads a key whole or a byte range of it, and nothing for a missing key', async () => {
    await store.putBytes('range/digits.txt', '0123456789');
    const whole = await store.read('range/digits.txt');
    const part = await store.read('range/digits.txt', { start: 3, end: 6 });
    expect(whole && (await text(whole))).toBe('0123456789');
    expect(part && (await text(part))).toBe('3456');
    expect(await store.read('range/none.txt')).toBeNull();
  });

  it('downloads a key to a local file, replacing it whole', async () => {
    await store.putBytes('dl/a.txt', 'stored');
    const target = path.join(scratch, `dl-${Math.random()}`, 'a.txt');
    expect(await store.download('dl/a.txt', target)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('stored');
    expect(await store.download('dl/none.txt', target)).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('stored');
  });

  it('gives a local file of a key for tools that need a path, and null for a missing key', async () => {
    await store.putBytes('9/t/in.txt', 'first');
    const file = await store.cached('9/t/in.txt');
    expect(file && readFileSync(file, 'utf8')).toBe('first');
    // A changed key is fetched again (its size differs from the copy's).
    await store.putBytes('9/t/in.txt', 'second!');
    const again = await store.cached('9/t/in.txt');
    expect(again && readFileSync(again, 'utf8')).toBe('second!');
    expect(await store.cached('9/t/none.txt')).toBeNull();
  });

  it('lists the keys below a prefix and removes a prefix or a key', async () => {
    await store.putBytes('7/t1/a.png', 'a');
    await store.putBytes('7/t1/frames/b.png', 'bb');
    await store.putBytes('7/t2/c.png', 'ccc');
    await store.putBytes('70/t9/d.png', 'dddd');
    expect(await store.list('7/t1/')).toEqual([
      { key: '7/t1/a.png', size: 1 },
      { key: '7/t1/frames/b.png', size: 2 },
    ]);
    expect((await store.list('7/')).map((entry) => entry.key)).toEqual([
      '7/t1/a.png',
      '7/t1/frames/b.png',
      '7/t2/c.png',
    ]);
    await store.remove('7/t1/');
    expect((await store.list('7/')).map((entry) => entry.key)).toEqual(['7/t2/c.png']);
    await store.remove('7/t2/c.png');
    expect(await store.list('7/')).toEqual([]);
    expect(await store.stat('70/t9/d.png')).not.toBeNull();
  });

  it('refuses keys that could lead outside the store, and removing everything', async () => {
    for (const key of ['../etc/passwd', '/abs', 'a//b', 'a/./b', 'a/.hidden', 'a\\b']) {
      await expect(store.stat(key)).rejects.toThrow('not a media store key');
    }
    await expect(store.remove('')).rejects.toThrow('refusing');
  });
});

describe('the local folder store', () => {
  it('does not follow a link placed in the folder', async () => {
    const root = mkdtempSync(path.join(scratch, 'links-'));
    const outside = path.join(scratch, 'secret.txt');
    writeFileSync(outside, 'secret');
    mkdirSync(path.join(root, '5'));
    symlinkSync(outside, path.join(root, '5', 'link.txt'));
    const store = new LocalStore(root);
    expect(await store.stat('5/link.txt')).toBeNull();
    expect(await store.read('5/link.txt')).toBeNull();
  });

  it('is the folder itself: a file already in place is not copied', async () => {
    const root = mkdtempSync(path.join(scratch, 'inplace-'));
    const store = new LocalStore(root);
    const file = store.localPath('3/t/out.mp4');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'made in place');
    await store.putFile('3/t/out.mp4', file);
    expect(readFileSync(file, 'utf8')).toBe('made in place');
    expect(await store.list('3/')).toEqual([{ key: '3/t/out.mp4', size: 13 }]);
  });
});

describe('the S3 store under a failing service', () => {
  it('puts a file again, with a fresh stream, when the service breaks once (503)', async () => {
    // A proxy in front of the S3 server that answers the first PUT with S3's own 503 body after
    // reading it: the SDK does not try a streamed body again, the store does.
    const target = new URL(s3.config.endpoint ?? '');
    let puts = 0;
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'PUT' && ++puts === 1) {
          res.writeHead(503, { 'content-type': 'application/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
          );
          return;
        }
        const forward = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      const { media } = await storesFrom({
        mediaStore: {
          ...s3.config,
          endpoint: `http://127.0.0.1:${port}`,
          prefix: `flaky-${Math.random().toString(36).slice(2)}/`,
        },
        mediaDir: mkdtempSync(path.join(scratch, 'cache-')),
        uploadsDir: '',
        releasesDir: '',
      });
      const file = path.join(scratch, 'flaky.mp4');
      writeFileSync(file, Buffer.alloc(20_000, 3));
      await media.putFile('9/t/flaky.mp4', file);
      expect(puts).toBeGreaterThanOrEqual(2);
      expect((await media.stat('9/t/flaky.mp4'))?.size).toBe(20_000);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
