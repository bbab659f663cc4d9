import { once } from 'node:events';
import type { FastifyReply } from 'fastify';
import { Zip, ZipPassThrough } from 'fflate';
import type { SeriesEpisode } from '@kol/shared-sdk/contracts';
import type { MediaStore } from '../storage/media-store';

/** A name a file system takes: no separators or control characters, not too long. */
export const safeFileName = (name: string) =>
  [...name]
    .map((char) => (char.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim()
    .slice(0, 80) || '视频';

/** `/media/<userId>/...` of this user as a media store key; null for anything else. */
function mediaKey(userId: number, url: string): string | null {
  const path = url.split('?', 1)[0] ?? '';
  const prefix = `/media/${userId}/`;
  if (!path.startsWith(prefix) || path.includes('..')) return null;
  return decodeURIComponent(path.slice('/media/'.length));
}

/**
 * Streams a ZIP of the episodes' MP4 and SRT files, stored (videos do not compress), read one
 * after another from the media store and written as they come: a season is never held in
 * memory. A file missing from the store is left out rather than failing the archive.
 */
export async function streamSeriesZip(
  store: MediaStore,
  userId: number,
  title: string,
  episodes: SeriesEpisode[],
  reply: FastifyReply,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  const archive = `${safeFileName(title)}.zip`;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="series.zip"; filename*=UTF-8''${encodeURIComponent(archive)}`,
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
  const width = String(episodes.length).length < 2 ? 2 : String(episodes.length).length;
  for (const episode of episodes) {
    const base = `第${String(episode.index).padStart(width, '0')}集 ${safeFileName(episode.title)}`;
    for (const [url, ext] of [
      [episode.videoUrl, 'mp4'],
      [episode.srtUrl, 'srt'],
    ] as const) {
      const key = url ? mediaKey(userId, url) : null;
      const stream = key ? await store.read(key) : null;
      if (!stream) continue;
      const entry = new ZipPassThrough(`${base}.${ext}`);
      zip.add(entry);
      for await (const chunk of stream) {
        if (raw.destroyed) {
          stream.destroy();
          return;
        }
        entry.push(chunk as Uint8Array);
        if (raw.writableNeedDrain) await once(raw, 'drain');
      }
      entry.push(new Uint8Array(0), true);
      if (failed) break;
    }
    if (failed) break;
  }
  if (failed) {
    raw.destroy(failed);
    return;
  }
  zip.end();
}
