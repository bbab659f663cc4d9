import type { FastifyReply } from 'fastify';
import type { SeriesEpisode } from '@kol/shared-sdk/contracts';
import { safeFileName, streamZip } from '../http/zip-stream';
import type { MediaStore } from '../storage/media-store';

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
  const width = String(episodes.length).length < 2 ? 2 : String(episodes.length).length;
  const entries = episodes.flatMap((episode) => {
    const base = `第${String(episode.index).padStart(width, '0')}集 ${safeFileName(episode.title)}`;
    return (
      [
        [episode.videoUrl, 'mp4'],
        [episode.srtUrl, 'srt'],
      ] as const
    ).map(([url, ext]) => ({
      name: `${base}.${ext}`,
      open: async () => {
        const key = url ? mediaKey(userId, url) : null;
        return key ? store.read(key) : null;
      },
    }));
  });
  await streamZip(reply, `${safeFileName(title)}.zip`, entries);
}
