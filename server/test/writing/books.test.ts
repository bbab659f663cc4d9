import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { strToU8, zipSync } from 'fflate';
import type {
  BookDetail,
  BookPlatform,
  BookSummary,
  ChapterContent,
} from '@kol/shared-sdk/contracts';
import { MAX_BOOK_UPLOAD_BYTES } from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { signedInClient, upload, type Client } from './helpers';

let app: FastifyInstance;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  ({ app } = await createTestApp());
  alice = await signedInClient(app);
  bob = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
});

const TXT = [
  '书名：测试之书',
  '作者：测试作者',
  '',
  '这是一段开头的介绍文字。',
  '第一章 风起',
  '　　风从北方吹来，吹过了整座小城。',
  '第二章 云涌',
  '　　云层越来越厚，城里的人都抬起了头。',
  '第3章 雨落',
  '　　第一滴雨落下的时候，她终于回来了。',
].join('\r\n');

function epub(): Uint8Array {
  const chapter = (title: string, body: string) =>
    `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title><style>p{}</style></head><body><h2>${title}</h2><p>${body}</p><p>第二段&amp;结尾&#x3002;</p></body></html>`;
  return zipSync({
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/content.opf': strToU8(
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>电子书测试</dc:title><dc:creator>某作者</dc:creator></metadata>' +
        '<manifest><item id="c2" href="text/c2.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/></manifest>' +
        '<spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
    ),
    // Listed out of order in the manifest: the spine decides.
    'OEBPS/text/c1.xhtml': strToU8(chapter('第一章 开端', '故事从一个雨夜开始。')),
    'OEBPS/text/c2.xhtml': strToU8(chapter('第二章 转折', '第二天，一切都变了。')),
  });
}

describe('book library', () => {
  it('lists the local library and finds the sample books', async () => {
    const platforms = await alice.get('/api/writing/get_platforms');
    expect(platforms.data as BookPlatform[]).toEqual([{ id: 1, name: '本地书库', builtin: true }]);
    const found = await alice.get(
      `/api/writing/search?platformId=1&bookName=${encodeURIComponent('青灯')}`,
    );
    const books = found.data as BookSummary[];
    expect(books).toHaveLength(1);
    expect(books[0]).toMatchObject({
      title: '青灯照剑',
      author: 'KOL Studio 示例',
      chapterCount: 6,
    });
    const detail = (await alice.get(`/api/writing/search_cbid?cbid=${books[0]?.bookId}`))
      .data as BookDetail;
    expect(detail.chapters.map((c) => c.title)[0]).toBe('第一章 守灯人');
    expect(detail.chapters[0]?.wordCount).toBeGreaterThan(150);
    const chapter = (
      await alice.get(
        `/api/writing/get_chapter_content?bookId=${detail.bookId}&chapterId=${detail.chapters[1]?.chapterId}`,
      )
    ).data as ChapterContent;
    expect(chapter.title).toBe('第二章 灯灭');
    expect(chapter.content).toContain('子时刚过');
    const all = await alice.get(
      `/api/writing/search?platformId=1&bookName=${encodeURIComponent('雾港')}`,
    );
    expect((all.data as BookSummary[])[0]?.title).toBe('雾港来信');
  });

  it('loads the sample books once, however often the app starts', async () => {
    const again = await createTestApp();
    await again.app.close();
    const found = await alice.get(
      `/api/writing/search?platformId=1&bookName=${encodeURIComponent('重返')}`,
    );
    expect(found.data as BookSummary[]).toHaveLength(1);
  });

  it('refuses unknown platforms and ids', async () => {
    expect((await alice.get('/api/writing/search?platformId=7&bookName=x')).code).toBe(404);
    const missing = await alice.get('/api/writing/search_cbid?cbid=abc');
    expect(missing.code).toBe(404);
    expect(missing.msg).toBe('没有找到编号为 abc 的书');
  });

  it('uploads a UTF-8 TXT, split by its headings, and only its owner sees it', async () => {
    const answer = await upload(app, alice, '测试之书.txt', Buffer.from(TXT, 'utf8'));
    expect(answer.code).toBe(0);
    const book = answer.data as BookDetail;
    expect(book).toMatchObject({ title: '测试之书', author: '测试作者', chapterCount: 3 });
    expect(book.intro).toBe('这是一段开头的介绍文字。');
    expect(book.chapters.map((c) => c.title)).toEqual(['第一章 风起', '第二章 云涌', '第3章 雨落']);
    const mine = await alice.get(
      `/api/writing/search?platformId=1&bookName=${encodeURIComponent('测试之书')}`,
    );
    expect(mine.data as BookSummary[]).toHaveLength(1);
    // Another user: not in search, and not by id or chapter.
    const theirs = await bob.get(
      `/api/writing/search?platformId=1&bookName=${encodeURIComponent('测试之书')}`,
    );
    expect(theirs.data as BookSummary[]).toHaveLength(0);
    expect((await bob.get(`/api/writing/search_cbid?cbid=${book.bookId}`)).code).toBe(404);
    const chapter = await bob.get(
      `/api/writing/get_chapter_content?bookId=${book.bookId}&chapterId=${book.chapters[0]?.chapterId}`,
    );
    expect(chapter.code).toBe(404);
    const generate = await bob.post('/api/writing/generate', {
      bookId: book.bookId,
      chapterIds: [book.chapters[0]?.chapterId],
    });
    expect(generate.code).toBe(404);
  });

  it('lists the catalogue for an empty or absent name: the samples, then only the user’s own', async () => {
    const titles = async (client: Client, query: string) => {
      const answer = await client.get(`/api/writing/search?platformId=1${query}`);
      expect(answer.code).toBe(0);
      return (answer.data as BookSummary[]).map((book) => book.title);
    };
    const samples = ['重返一九九八', '青灯照剑', '雾港来信'];
    const aliceSees = await titles(alice, '&bookName=');
    // Sample books first; alice's upload of the test before is hers alone.
    expect(aliceSees.slice(0, samples.length).sort()).toEqual([...samples].sort());
    expect(aliceSees).toContain('测试之书');
    expect(await titles(alice, `&bookName=${encodeURIComponent('   ')}`)).toEqual(aliceSees);
    expect(await titles(alice, '')).toEqual(aliceSees);
    const bobSees = await titles(bob, '&bookName=');
    expect(bobSees).not.toContain('测试之书');
    expect(bobSees).toEqual(expect.arrayContaining(samples));
  });

  it('uploads a GB18030 TXT', async () => {
    // 「第一章 风起」… in GB18030 bytes, built with a tiny table of the characters used.
    const gb = Buffer.from(
      'b5dad2bbd5c220b7e7c6f00d0ab7e7b4d3b1b1b7bdb4b5c0b4a1a30d0ab5dab6fed5c220d4c6d3bf0d0ad4c6b2e3d4bdc0b4d4bdbaf1a1a3',
      'hex',
    );
    expect(new TextDecoder('gb18030').decode(gb)).toContain('第一章 风起');
    const answer = await upload(app, alice, 'gbk.txt', gb);
    expect(answer.code).toBe(0);
    const book = answer.data as BookDetail;
    expect(book.title).toBe('gbk');
    expect(book.chapters.map((c) => c.title)).toEqual(['第一章 风起', '第二章 云涌']);
    const chapter = (
      await alice.get(
        `/api/writing/get_chapter_content?bookId=${book.bookId}&chapterId=${book.chapters[0]?.chapterId}`,
      )
    ).data as ChapterContent;
    expect(chapter.content).toBe('风从北方吹来。');
  });

  it('uploads an EPUB in spine order', async () => {
    const answer = await upload(app, alice, 'book.epub', epub());
    expect(answer.code).toBe(0);
    const book = answer.data as BookDetail;
    expect(book).toMatchObject({ title: '电子书测试', author: '某作者', chapterCount: 2 });
    expect(book.chapters.map((c) => c.title)).toEqual(['第一章 开端', '第二章 转折']);
    const chapter = (
      await alice.get(
        `/api/writing/get_chapter_content?bookId=${book.bookId}&chapterId=${book.chapters[0]?.chapterId}`,
      )
    ).data as ChapterContent;
    expect(chapter.content).toBe('故事从一个雨夜开始。\n第二段&结尾。');
  });

  it('refuses bad uploads with a clear message', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    let answer = await upload(app, alice, 'cover.png', png);
    expect(answer).toMatchObject({ code: 400, msg: '只支持 TXT 或 EPUB 格式的书籍' });
    answer = await upload(app, alice, 'x.txt', png);
    expect(answer.msg).toBe('只支持 TXT 或 EPUB 格式的书籍');
    answer = await upload(
      app,
      alice,
      'notes.txt',
      Buffer.from('只是一段没有章节标题的文字。\n第二行。', 'utf8'),
    );
    expect(answer.code).toBe(400);
    expect(answer.msg).toContain('没有找到章节标题');
    // Not UTF-8, and not GB18030 either (0x80 alone and 0xff are invalid there).
    answer = await upload(
      app,
      alice,
      'bad.txt',
      Buffer.from([0xb5, 0xda, 0x80, 0xff, 0xff, 0x41, 0x80, 0xff]),
    );
    expect(answer.code).toBe(400);
    expect(answer.msg).toContain('无法识别这个 TXT 文件的编码');
    answer = await upload(app, alice, 'broken.epub', Buffer.from('504b03040000', 'hex'));
    expect(answer.code).toBe(400);
    expect(answer.msg).toContain('EPUB');
    const big = Buffer.alloc(MAX_BOOK_UPLOAD_BYTES + 10, 0x41);
    answer = await upload(app, alice, 'big.txt', big);
    expect(answer).toMatchObject({ code: 413, msg: '书籍文件不能超过 20 MB' });
  });

  it('needs a session and the platform header', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/writing/get_platforms' });
    expect(anonymous.statusCode).toBe(401);
  });
});
