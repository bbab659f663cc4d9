import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { XMLParser } from 'fast-xml-parser';

/**
 * Turns an uploaded file into a book: decode (UTF-8, UTF-16 with BOM, else GB18030), or read an
 * EPUB's spine; then split into chapters by their headings. Every refusal is a BookRefused with
 * the message the user reads.
 *
 * This is CPU work proportional to what the file unpacks to, so the server never calls it on its
 * own thread: see parse-off-thread.ts, which runs it in a worker with a time and memory limit.
 * The limits below bound what the worker may produce in the first place.
 */

export interface ParsedChapter {
  title: string;
  content: string;
}

export interface ParsedBook {
  title: string;
  author: string;
  intro: string;
  chapters: ParsedChapter[];
}

export type RefusalReason =
  | 'type'
  | 'size'
  | 'encoding'
  | 'chapters'
  | 'epub'
  | 'limit'
  | 'timeout'
  | 'memory'
  | 'unreadable';

export class BookRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'BookRefused';
  }
}

export const TYPE_MESSAGE = '只支持 TXT 或 EPUB 格式的书籍';
export const ENCODING_MESSAGE =
  '无法识别这个 TXT 文件的编码，请另存为 UTF-8 或 GB18030（GBK）编码后再上传';
export const NO_CHAPTERS_MESSAGE =
  '没有找到章节标题（如「第一章 xxx」「第1回」「Chapter 1」），无法分章，请检查文件内容';
export const EPUB_MESSAGE = '这个 EPUB 文件已损坏或格式不正确，无法读取';

const MB = 1024 * 1024;

/**
 * What one book may unpack to. A long web novel is 3 to 5 million characters: 10 to 15 MB of
 * XHTML, in one file or in thousands. Pictures, fonts and styles are never inflated (see
 * EPUB_TEXT_ENTRY), so they count only towards the number of files.
 */
export const BOOK_LIMITS = {
  /** Bytes actually inflated from all text files of an EPUB, whatever the headers claim. */
  epubUnpackedBytes: 50 * MB,
  /** Bytes actually inflated from one file of an EPUB. */
  epubEntryBytes: 20 * MB,
  /** Files (of any kind) in an EPUB. */
  epubEntries: 5000,
  /** Characters of chapter text kept from a book (TXT or EPUB). */
  textChars: 12_000_000,
  /** Chapters kept from a book. */
  chapters: 20_000,
} as const;

export const LIMIT_MESSAGES = {
  epubUnpackedBytes: `书籍解压后超过 ${BOOK_LIMITS.epubUnpackedBytes / MB} MB，无法导入`,
  epubEntryBytes: (name: string) =>
    `EPUB 中的文件「${printableName(name)}」解压后超过 ${BOOK_LIMITS.epubEntryBytes / MB} MB，无法导入`,
  epubEntries: `EPUB 中的文件超过 ${BOOK_LIMITS.epubEntries} 个，无法导入`,
  textChars: `书籍正文超过 ${BOOK_LIMITS.textChars / 10_000} 万字，无法导入，请拆分后再上传`,
  chapters: `书籍超过 ${BOOK_LIMITS.chapters} 章，无法导入，请拆分后再上传`,
} as const;

/** An archive member's name as the message shows it: the sender chose it, so keep it short. */
function printableName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is dropped
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > 80 ? `…${clean.slice(-79)}` : clean;
}

/** Count of Chinese characters, letters and digits: what a writer calls the word count. */
export function wordCount(text: string): number {
  return text.replace(/[\s\p{P}\p{S}]/gu, '').length;
}

// ---------------------------------------------------------------------------------------------
// Decoding

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Share of characters that no real text is made of (control characters, U+FFFD). */
function garbageShare(text: string): number {
  if (text.length === 0) return 0;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is counted
  const bad = text.match(/[\u0000-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return bad / text.length;
}

export function decodeText(bytes: Uint8Array): string {
  let text: string | null = null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes);
  else {
    // Valid UTF-8 is almost never accidental; otherwise try the Chinese national encoding
    // (GB18030 is a superset of GBK and GB2312, which most Chinese TXT books use).
    for (const encoding of ['utf-8', 'gb18030']) {
      try {
        text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
        break;
      } catch {
        // try the next encoding
      }
    }
  }
  if (text === null || garbageShare(text) > 0.01) {
    throw new BookRefused('encoding', ENCODING_MESSAGE);
  }
  return text.replace(/^\ufeff/, '');
}

// ---------------------------------------------------------------------------------------------
// Chapters

const NUMERAL = '[0-9０-９零〇一二三四五六七八九十百千万两壹贰叁肆伍陆柒捌玖拾佰仟]+';
const CHAPTER_HEADING = new RegExp(
  '^(?:' +
    [
      `第${NUMERAL}[章回节折幕](?:[\\s:：、.．·—-].{0,40}|.{0,30})`,
      '(?:序章|序言|序|楔子|引子|前言|引言|尾声|后记|终章|番外)(?:[\\s:：、.．·—-].{0,40}|.{0,20})?',
      '(?:chapter|CHAPTER|Chapter)\\s*[0-9IVXLCivxlc]+\\b.{0,50}',
    ].join('|') +
    ')$',
);
/** Volume headings (第一卷 …) group chapters; they are not chapters themselves. */
const VOLUME_HEADING = new RegExp(`^第${NUMERAL}[卷部集篇](?:[\\s:：、.．·—-].{0,40}|.{0,30})$`);

const META_LINE = /^(书名|作者|简介|内容简介|作品简介)[:：]\s*(.*)$/;

export function isChapterHeading(line: string): boolean {
  const trimmed = line.trim();
  // A heading is a short line; a sentence that happens to start with 第三章 is not one.
  return trimmed.length <= 50 && CHAPTER_HEADING.test(trimmed) && !/[。！？]$/.test(trimmed);
}

function cleanParagraphs(lines: string[]): string {
  return lines
    .map((line) => line.replace(/[\u3000\s]+$/u, '').replace(/^[\u3000\s]+/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Refuses more text than a book keeps (the text is stored, searched and sent to the page). */
function checkTextLength(length: number): void {
  if (length > BOOK_LIMITS.textChars) throw new BookRefused('limit', LIMIT_MESSAGES.textChars);
}

function checkKept(chapters: ParsedChapter[]): void {
  if (chapters.length > BOOK_LIMITS.chapters)
    throw new BookRefused('limit', LIMIT_MESSAGES.chapters);
  checkTextLength(chapters.reduce((sum, c) => sum + c.content.length, 0));
}

/**
 * Splits plain text into chapters at heading lines. Lines before the first heading may carry
 * 书名：/作者：/简介： (the sample books and many TXT books do); other text there becomes the intro.
 */
export function splitChapters(
  text: string,
  fallbackTitle: string,
): { title: string; author: string; intro: string; chapters: ParsedChapter[] } {
  checkTextLength(text.length);
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let title = '';
  let author = '';
  let intro = '';
  const preface: string[] = [];
  const chapters: Array<{ title: string; lines: string[] }> = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (isChapterHeading(line)) {
      chapters.push({ title: line.replace(/\s+/g, ' '), lines: [] });
      continue;
    }
    if (VOLUME_HEADING.test(line) && line.length <= 50) continue;
    const current = chapters[chapters.length - 1];
    if (current) {
      current.lines.push(raw);
      continue;
    }
    const meta = META_LINE.exec(line);
    if (meta) {
      const value = (meta[2] ?? '').trim();
      if (meta[1] === '书名') title = value.replace(/^《(.*)》$/, '$1');
      else if (meta[1] === '作者') author = value;
      else intro = value;
    } else {
      preface.push(raw);
    }
  }
  const found = chapters
    .map((c) => ({ title: c.title, content: cleanParagraphs(c.lines) }))
    .filter((c) => c.content.length > 0);
  if (found.length === 0) throw new BookRefused('chapters', NO_CHAPTERS_MESSAGE);
  checkKept(found);
  const prefaceText = cleanParagraphs(preface);
  return {
    title: title || fallbackTitle,
    author,
    intro: (intro || prefaceText || (found[0]?.content ?? '')).slice(0, 300),
    chapters: found,
  };
}

// ---------------------------------------------------------------------------------------------
// EPUB

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  mdash: '—',
  hellip: '…',
  middot: '·',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (!name.startsWith('#')) return ENTITIES[name.toLowerCase()] ?? whole;
    const hex = name[1] === 'x' || name[1] === 'X';
    const point = parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
    // &#99999999; is no character: fromCodePoint would throw on it, so it stays as written.
    return point <= 0x10ffff ? String.fromCodePoint(point) : whole;
  });
}

/** XHTML to plain text: block elements become line breaks, every other tag goes. */
export function xhtmlToText(xhtml: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(xhtml)?.[1] ?? xhtml;
  return decodeEntities(
    body
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|h[1-6]|li|section|blockquote|tr)>/gi, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

function firstHeading(xhtml: string): string {
  const match =
    /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(xhtml) ?? /<title>([\s\S]*?)<\/title>/i.exec(xhtml);
  return match ? decodeEntities((match[1] ?? '').replace(/<[^>]+>/g, '')).trim() : '';
}

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Text of an XML node that may be a string or an object with `#text`. */
function nodeText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
  if (value && typeof value === 'object' && '#text' in value) return nodeText(value['#text']);
  if (Array.isArray(value)) return nodeText(value[0]);
  return '';
}

function safeDecodeUri(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray % (not an escape): the name is meant literally.
    return text;
  }
}

function resolvePath(base: string, href: string): string {
  const parts = (base ? base.split('/') : []).concat(
    safeDecodeUri(href.split('#')[0] ?? '').split('/'),
  );
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/** Members a book is read from; pictures, fonts, styles and the rest are never inflated. */
const EPUB_TEXT_ENTRY = /\.(xml|opf|xhtml|xht|html?)$/i;

/**
 * Compressed bytes handed to the inflater at a time. Deflate expands at most about 1032 to 1, so
 * one step produces at most about 4 MB before the counts below are checked again.
 */
const UNZIP_STEP = 4096;

/**
 * Unpacks the text members of an EPUB with fflate's streaming Unzip, counting the bytes that
 * actually come out (the sizes in the zip headers are the sender's word: a bomb claims 100
 * bytes and inflates to gigabytes). Stops at the first limit crossed.
 */
export function unpackEpub(bytes: Uint8Array): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let entries = 0;
  let unpacked = 0;
  const onFile = (file: UnzipFile) => {
    entries += 1;
    if (entries > BOOK_LIMITS.epubEntries) {
      throw new BookRefused('limit', LIMIT_MESSAGES.epubEntries);
    }
    if (!EPUB_TEXT_ENTRY.test(file.name)) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      // fflate hands an error thrown below back here once: pass a refusal on as it is.
      if (error) throw error instanceof BookRefused ? error : new BookRefused('epub', EPUB_MESSAGE);
      size += chunk.length;
      unpacked += chunk.length;
      if (size > BOOK_LIMITS.epubEntryBytes) {
        throw new BookRefused('limit', LIMIT_MESSAGES.epubEntryBytes(file.name));
      }
      if (unpacked > BOOK_LIMITS.epubUnpackedBytes) {
        throw new BookRefused('limit', LIMIT_MESSAGES.epubUnpackedBytes);
      }
      if (chunk.length > 0) chunks.push(chunk);
      if (final) files.set(file.name, joinChunks(chunks, size));
    };
    file.start();
  };
  try {
    const unzip = new Unzip(onFile);
    unzip.register(UnzipInflate);
    for (let at = 0; at < bytes.length; at += UNZIP_STEP) {
      unzip.push(bytes.subarray(at, at + UNZIP_STEP), at + UNZIP_STEP >= bytes.length);
    }
  } catch (error) {
    if (error instanceof BookRefused) throw error;
    throw new BookRefused('epub', EPUB_MESSAGE);
  }
  return files;
}

function joinChunks(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

export function parseEpub(bytes: Uint8Array, fallbackTitle: string): ParsedBook {
  const files = unpackEpub(bytes);
  const utf8 = (name: string) => {
    const data = files.get(name);
    return data ? new TextDecoder('utf-8').decode(data) : null;
  };
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
  });
  const container = utf8('META-INF/container.xml');
  if (!container) throw new BookRefused('epub', EPUB_MESSAGE);
  let opfPath = '';
  let opf: Record<string, unknown>;
  try {
    const parsed = parser.parse(container) as {
      container?: {
        rootfiles?: { rootfile?: { '@full-path'?: string } | Array<{ '@full-path'?: string }> };
      };
    };
    opfPath = asArray(parsed.container?.rootfiles?.rootfile)[0]?.['@full-path'] ?? '';
    const opfText = utf8(opfPath);
    if (!opfText) throw new Error('no opf');
    opf = parser.parse(opfText) as Record<string, unknown>;
  } catch {
    throw new BookRefused('epub', EPUB_MESSAGE);
  }
  // The casts describe the OPF shape fast-xml-parser produces; every field is checked before use.
  const pkg = (opf.package ?? {}) as {
    metadata?: Record<string, unknown>;
    manifest?: { item?: unknown };
    spine?: { itemref?: unknown };
  };
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/')) : '';
  const manifest = new Map<string, string>();
  for (const item of asArray(pkg.manifest?.item) as Array<Record<string, string>>) {
    if (item['@id'] && item['@href']) manifest.set(item['@id'], resolvePath(base, item['@href']));
  }
  const docs: Array<{ heading: string; text: string }> = [];
  let textLength = 0;
  for (const ref of asArray(pkg.spine?.itemref) as Array<Record<string, string>>) {
    const href = manifest.get(ref['@idref'] ?? '');
    const xhtml = href ? utf8(href) : null;
    if (!xhtml) continue;
    const text = xhtmlToText(xhtml);
    // Checked as it grows: a spine listing one big file many times must not multiply it.
    textLength += text.length;
    checkTextLength(textLength);
    docs.push({ heading: firstHeading(xhtml), text });
  }
  if (docs.length === 0) throw new BookRefused('epub', EPUB_MESSAGE);
  const title = nodeText(pkg.metadata?.title) || fallbackTitle;
  const author = nodeText(pkg.metadata?.creator);
  const description = xhtmlToText(nodeText(pkg.metadata?.description));

  // Headings in the text are the most reliable; else each spine document with a heading is one.
  try {
    const split = splitChapters(docs.map((d) => d.text).join('\n'), title);
    return { title, author, intro: description || split.intro, chapters: split.chapters };
  } catch (error) {
    if (!(error instanceof BookRefused)) throw error;
  }
  const chapters = docs
    .filter((d) => d.heading && wordCount(d.text) >= 20)
    .map((d) => ({
      title: d.heading,
      content: d.text.startsWith(d.heading) ? d.text.slice(d.heading.length).trim() : d.text,
    }));
  if (chapters.length === 0) throw new BookRefused('chapters', NO_CHAPTERS_MESSAGE);
  checkKept(chapters);
  return {
    title,
    author,
    intro: (description || (chapters[0]?.content ?? '')).slice(0, 300),
    chapters,
  };
}

/** Reads an uploaded book by its content (zip = EPUB) and name. */
export function parseBook(bytes: Uint8Array, fileName: string): ParsedBook {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const baseName = fileName.replace(/\.[a-z0-9]+$/i, '').trim() || '未命名书籍';
  if (isZip(bytes)) {
    if (extension !== 'epub' && extension !== '') throw new BookRefused('type', TYPE_MESSAGE);
    return parseEpub(bytes, baseName);
  }
  if (extension !== 'txt' && extension !== '') throw new BookRefused('type', TYPE_MESSAGE);
  // Binary files (images, documents) contain NUL bytes; text does not (UTF-16 aside).
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!utf16 && bytes.subarray(0, 4096).includes(0)) throw new BookRefused('type', TYPE_MESSAGE);
  return splitChapters(decodeText(bytes), baseName);
}
