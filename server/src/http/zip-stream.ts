import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** One file of a streamed archive: its bytes, or a stream read when its turn comes. */
export interface ZipEntry {
  name: string;
  /** Small texts (JSON, XML) are deflated; media are stored (they do not compress). */
  bytes?: string | Uint8Array;
  /** Null when the file is gone: it is left out rather than failing the archive. */
  open?: () => Promise<Readable | null>;
}

/** Until the socket takes more, or is gone (a client that left never drains). */
async function drained(raw: NodeJS.WritableStream): Promise<void> {
  // The listener of the event that did not come goes too: one per wait would pile up.
  const done = new AbortController();
  try {
    await Promise.race([
      once(raw, 'drain', { signal: done.signal }),
      once(raw, 'close', { signal: done.signal }),
    ]);
  } finally {
    done.abort();
  }
}

/** A name a file system takes: no separators or control characters, not too long. */
export const safeFileName = (name: string, fallback = '视频') =>
  [...name]
    .map((char) => (char.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim()
    .slice(0, 80) || fallback;

/**
 * Streams a ZIP to the reply as its entries come, one after another: a file is read from its
 * stream and written out chunk by chunk, waiting for the socket to drain, so an archive of a
 * season or of a long video's media is never held in memory. A client that goes away stops it.
 */
export async function streamZip(
  reply: FastifyReply,
  archiveName: string,
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'application/zip',
    // An ASCII name for old clients, the real one (Chinese) in filename*.
    'content-disposition': `attachment; filename="export.zip"; filename*=UTF-8''${encodeURIComponent(archiveName)}`,
    'cache-control': 'private, no-store',
  });
  let failed: Error | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failed = error;
      return;
    }
    raw.write(chunk);
    if (final) raw.end();
  });
  for await (const entry of entries) {
    if (entry.bytes !== undefined) {
      const file = new ZipDeflate(entry.name, { level: 6 });
      zip.add(file);
      file.push(typeof entry.bytes === 'string' ? Buffer.from(entry.bytes) : entry.bytes, true);
    } else {
      const stream = entry.open ? await entry.open() : null;
      if (!stream) continue;
      const file = new ZipPassThrough(entry.name);
      zip.add(file);
      for await (const chunk of stream) {
        if (raw.destroyed) {
          stream.destroy();
          return;
        }
        file.push(chunk as Uint8Array);
        if (raw.writableNeedDrain) await drained(raw);
      }
      file.push(new Uint8Array(0), true);
    }
    if (failed) break;
    if (raw.writableNeedDrain) await drained(raw);
    if (raw.destroyed) return;
  }
  if (failed) {
    raw.destroy(failed);
    return;
  }
  zip.end();
}
