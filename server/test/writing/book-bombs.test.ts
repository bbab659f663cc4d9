import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { BookDetail } from '@kol/shared-sdk/contracts';
import { BookRefused } from '../../src/writing/books/parse';
import { parseBookOffThread } from '../../src/writing/books/parse-off-thread';
import { createTestApp } from '../helpers/test-app';
import { expectServing, watchHealth } from './health-watch';
import { signedInClient, upload, type Client } from './helpers';

// The bombs are built here in a few hundred ms; a refusal takes a second or two on 2 cores.
jest.setTimeout(60_000);

let app: FastifyInstance;
let alice: Client;

beforeAll(async () => {
  ({ app } = await createTestApp());
  alice = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
});

// ---------------------------------------------------------------------------------------------
// A zip writer that lets a test lie in the headers (fflate's zipSync always tells the truth).

interface RawEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: 0 | 8;
  /** The bytes as stored in the archive (already deflated for method 8). */
  data: Uint8Array;
  crc: number;
  /** What the headers claim the entry inflates to. */
  claimedSize: number;
}

function zipOf(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.claimedSize, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, Buffer.from(entry.data));
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.claimedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An honest deflated entry. */
function deflated(name: string, content: string | Buffer): RawEntry {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return {
    name,
    method: 8,
    data: zlib.deflateRawSync(bytes, { level: 1 }),
    crc: zlib.crc32(bytes),
    claimedSize: bytes.length,
  };
}

const stored = (name: string, content: string): RawEntry => {
  const bytes = Buffer.from(content, 'utf8');
  return { name, method: 0, data: bytes, crc: zlib.crc32(bytes), claimedSize: bytes.length };
};

/** The entries every EPUB here has: mimetype, container and an OPF whose spine is c1.xhtml. */
const frame = (): RawEntry[] => [
  stored('mimetype', 'application/epub+zip'),
  deflated(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  ),
  deflated(
    'OEBPS/content.opf',
    '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>炸弹</dc:title></metadata>' +
      '<manifest><item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/></manifest>' +
      '<spine><itemref idref="c1"/></spine></package>',
  ),
];

const MiB = 1024 * 1024;

/**
 * A raw deflate stream of 4 GiB of zeros in about 4 MB, made by hand in a blink: one dynamic
 * Huffman block whose codes give the 258-byte match at distance 1 a single bit and distance 1 a
 * single bit, so after a literal zero every 0x00 byte of the stream is four such matches. No
 * stored block anywhere (a stored block makes fflate's old fixed-size output fail fast; a real
 * bomb need not have one).
 */
function fourGiBOfZeros(): Buffer {
  const bytes: number[] = [];
  let pending = 0;
  let count = 0;
  const bit = (b: number) => {
    pending |= b << count;
    if (++count === 8) {
      bytes.push(pending);
      pending = 0;
      count = 0;
    }
  };
  /** A header field: least significant bit first. */
  const field = (value: number, width: number) => {
    for (let i = 0; i < width; i++) bit((value >> i) & 1);
  };
  /** A Huffman code: most significant bit first. */
  const code = (value: number, width: number) => {
    for (let i = width - 1; i >= 0; i--) bit((value >> i) & 1);
  };
  field(1, 1); // last block
  field(2, 2); // dynamic Huffman
  field(286 - 257, 5); // literal/length codes 0..285
  field(0, 5); // one distance code
  field(19 - 4, 4); // code length codes, in the order below
  // Code length alphabet: 18 (a run of zeros) 1 bit = code 0, lengths 1 and 2 two bits = 10, 11.
  const lengths: Record<number, number> = { 18: 1, 1: 2, 2: 2 };
  for (const symbol of [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]) {
    field(lengths[symbol] ?? 0, 3);
  }
  const zeros = (run: number) => {
    code(0, 1);
    field(run - 11, 7);
  };
  // Literal/length lengths: 0 -> 2, 1..255 -> 0, 256 -> 2, 257..284 -> 0, 285 -> 1.
  code(0b11, 2);
  zeros(138);
  zeros(117);
  code(0b11, 2);
  zeros(28);
  code(0b10, 2);
  code(0b10, 2); // the one distance code (distance 1) has length 1
  // So: length 258 = code 0, distance 1 = code 0, literal 0 = code 10, end of block = code 11.
  code(0b10, 2);
  let matches = 0;
  while (count !== 0) {
    code(0, 1);
    code(0, 1);
    matches += 1;
  }
  const head = Buffer.from(bytes);
  const zeroBytes = Math.ceil((4 * 1024 * MiB) / 258 / 4);
  matches += zeroBytes * 4;
  bytes.length = 0;
  code(0b11, 2);
  bytes.push(pending);
  expect(1 + matches * 258).toBeGreaterThanOrEqual(4 * 1024 * MiB);
  return Buffer.concat([head, Buffer.alloc(zeroBytes), Buffer.from(bytes)]);
}

/** Bomb 1: the chapter's headers claim 100 bytes; its deflate data inflates to 4 GiB. */
const lyingBomb = (): Buffer =>
  zipOf([
    ...frame(),
    { name: 'OEBPS/text/c1.xhtml', method: 8, data: fourGiBOfZeros(), crc: 0, claimedSize: 100 },
  ]);

/** Bomb 2: an honest 95 MiB XHTML of real chapters, every header telling the truth. */
function honestBomb(): Buffer {
  const paragraph =
    '　　风从北方吹来，吹过了整座小城，城里的人都抬起了头，看着那一片越来越厚的云层。'.repeat(20);
  const blocks: string[] = [];
  let size = 0;
  for (let i = 1; size < 95 * MiB; i++) {
    const block = `<h2>第${i}章 风起</h2><p>${paragraph}</p>\n`;
    blocks.push(block);
    size += Buffer.byteLength(block);
  }
  const xhtml = Buffer.from(
    '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>炸弹</title></head><body>' +
      blocks.join('') +
      '</body></html>',
  );
  return zipOf([...frame(), deflated('OEBPS/text/c1.xhtml', xhtml)]);
}

async function uploadWatched(fileName: string, bytes: Uint8Array) {
  const stop = watchHealth(app);
  const started = performance.now();
  const answer = await upload(app, alice, fileName, bytes);
  const tookMs = Math.round(performance.now() - started);
  const health = await stop();
  return { answer, tookMs, health };
}

describe('book upload bombs', () => {
  it('refuses an EPUB whose 100-byte chapter inflates to 4 GiB, /healthz answering throughout', async () => {
    const bomb = lyingBomb();
    expect(bomb.length).toBeLessThan(5 * MiB);
    // It is what it says: more than 64 MB comes out of it (zlib stops there and throws).
    expect(() => zlib.inflateRawSync(fourGiBOfZeros(), { maxOutputLength: 64 * MiB })).toThrow(
      /larger than/,
    );
    const { answer, tookMs, health } = await uploadWatched('bomb.epub', bomb);
    console.log(
      `4 GiB bomb (${(bomb.length / MiB).toFixed(1)} MB upload): answered ${answer.status} in ${tookMs} ms; ` +
        `/healthz median ${health.medianMs} ms, longest ${health.worstMs} ms over ${health.polls} polls`,
    );
    expect(answer).toMatchObject({ status: 400, code: 400, data: null });
    expect(answer.msg).toBe('EPUB 中的文件「OEBPS/text/c1.xhtml」解压后超过 20 MB，无法导入');
    expectServing(health);
  });

  it('refuses an EPUB with an honest 95 MB XHTML, /healthz answering throughout', async () => {
    const bomb = honestBomb();
    const { answer, tookMs, health } = await uploadWatched('honest.epub', bomb);
    console.log(
      `95 MB XHTML (${Math.round(bomb.length / 1024)} KB upload): answered ${answer.status} in ${tookMs} ms; ` +
        `/healthz median ${health.medianMs} ms, longest ${health.worstMs} ms over ${health.polls} polls`,
    );
    expect(answer).toMatchObject({ status: 400, code: 400, data: null });
    expect(answer.msg).toBe('EPUB 中的文件「OEBPS/text/c1.xhtml」解压后超过 20 MB，无法导入');
    expectServing(health);
  });

  it('refuses more than 50 MB inflated in all, however it is split', async () => {
    // Three honest 19 MB chapters: each under the per-file limit, together over the total.
    const xhtml = (n: number) =>
      Buffer.from(
        `<html><body><h2>第${n}章</h2><p>${'正文'.repeat(Math.floor((19 * MiB) / 6))}</p></body></html>`,
      );
    const entries = frame();
    entries[2] = deflated(
      'OEBPS/content.opf',
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>' +
        '<manifest><item id="a" href="a.xhtml"/><item id="b" href="b.xhtml"/><item id="c" href="c.xhtml"/></manifest>' +
        '<spine><itemref idref="a"/><itemref idref="b"/><itemref idref="c"/></spine></package>',
    );
    entries.push(
      deflated('OEBPS/a.xhtml', xhtml(1)),
      deflated('OEBPS/b.xhtml', xhtml(2)),
      deflated('OEBPS/c.xhtml', xhtml(3)),
    );
    const answer = await upload(app, alice, 'three.epub', zipOf(entries));
    expect(answer).toMatchObject({ status: 400, msg: '书籍解压后超过 50 MB，无法导入' });
  });

  it('refuses an EPUB of more than 5000 files', async () => {
    const entries = frame();
    for (let i = 0; i < 5000; i++) entries.push(stored(`OEBPS/images/${i}.png`, 'x'));
    const answer = await upload(app, alice, 'many.epub', zipOf(entries));
    expect(answer).toMatchObject({ status: 400, msg: 'EPUB 中的文件超过 5000 个，无法导入' });
  });

  it('never inflates what a book does not need: a 4 GiB picture is skipped', async () => {
    // The same lying stream, but as a picture; the chapter is an ordinary one.
    const entries = frame();
    entries.push(
      deflated(
        'OEBPS/text/c1.xhtml',
        '<html><body><h2>第一章 开端</h2><p>故事从一个雨夜开始，她推开了那扇门。</p></body></html>',
      ),
    );
    entries.push({
      name: 'OEBPS/images/cover.jpg',
      method: 8,
      data: fourGiBOfZeros(),
      crc: 0,
      claimedSize: 100,
    });
    const { answer, health } = await uploadWatched('picture.epub', zipOf(entries));
    expect(answer.code).toBe(0);
    expectServing(health);
    expect((answer.data as BookDetail).chapters.map((c) => c.title)).toEqual(['第一章 开端']);
  });
});

/** A plain TXT novel of about `bytes` bytes of UTF-8: real chapters, nothing hostile. */
function longNovel(bytes: number): Buffer {
  const paragraph = '　　风从北方吹来，吹过了整座小城，城里的人都抬起了头。\n'.repeat(60);
  const parts: string[] = ['书名：长篇\n'];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const chapter = `第${i}章 风起\n${paragraph}`;
    parts.push(chapter);
    size += Buffer.byteLength(chapter);
  }
  return Buffer.from(parts.join(''));
}

describe('the parser thread', () => {
  it('is stopped at its time limit, and the next parse still runs', async () => {
    const novel = longNovel(19 * MiB);
    // Refused for its time, not parsed: the limit fired. (How soon is not a test's to say on a
    // loaded machine; the thread is terminated when the limit fires.)
    const error = await parseBookOffThread(novel, 'long.txt', {
      timeoutMs: 100,
      heapMb: 256,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BookRefused);
    expect((error as BookRefused).reason).toBe('timeout');
    expect((error as BookRefused).message).toBe(
      '书籍解析超过 0.1 秒仍未完成，已停止，请检查文件内容或拆分后再上传',
    );
    const book = await parseBookOffThread(novel, 'long.txt');
    expect(book.title).toBe('长篇');
    expect(book.chapters.length).toBeGreaterThan(1000);
    expect(book.chapters[0]?.wordCount).toBeGreaterThan(1000);
  });

  it('runs at most two parses at once and queues the rest, each to its end', async () => {
    const books = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => parseBookOffThread(longNovel(n * 64 * 1024), `${n}.txt`)),
    );
    expect(books.map((b) => b.title)).toEqual(['长篇', '长篇', '长篇', '长篇', '长篇']);
    expect(books[4]?.chapters.length).toBeGreaterThan(books[0]?.chapters.length ?? 0);
  });

  it('is stopped at its memory limit', async () => {
    const limits = { timeoutMs: 20_000, heapMb: 32 };
    // A short book fits in 32 MB: what stops the long one is its own size.
    const short = await parseBookOffThread(longNovel(64 * 1024), 'short.txt', limits);
    expect(short.chapters.length).toBeGreaterThan(5);
    const error = await parseBookOffThread(longNovel(19 * MiB), 'long.txt', limits).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BookRefused);
    expect((error as BookRefused).message).toBe(
      '书籍解析所需内存超过 32 MB，已停止，请拆分后再上传',
    );
  });

  it('reads odd but harmless input instead of failing: a huge character reference, a stray %', async () => {
    const entries = frame();
    entries[2] = deflated(
      'OEBPS/content.opf',
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>' +
        '<manifest><item id="c1" href="text/100%.xhtml"/></manifest><spine><itemref idref="c1"/></spine></package>',
    );
    entries.push(
      deflated(
        'OEBPS/text/100%.xhtml',
        '<html><body><h2>第一章 开端</h2><p>故事从一个雨夜开始&#99999999;她推开了门。</p></body></html>',
      ),
    );
    const answer = await upload(app, alice, 'odd.epub', zipOf(entries));
    expect(answer.code).toBe(0);
    const book = answer.data as BookDetail;
    expect(book.chapters.map((c) => c.title)).toEqual(['第一章 开端']);
  });
});
