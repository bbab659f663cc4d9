import { useQuery } from '@tanstack/react-query';
import {
  followSeriesProgress,
  getSeries,
  listSeries,
  type SeriesDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';

/** How often a series is asked for when its progress stream is gone (a server restart). */
export const SERIES_POLL_MS = 3000;

export const seriesKey = (seriesId: number) => ['series', seriesId] as const;
export const SERIES_LIST_KEY = ['series', 'list'] as const;

/** A series goes on while an episode waits or renders; a draft waits for its start. */
export function seriesEnded(series: SeriesDetail): boolean {
  if (series.state === 'draft') return true;
  if (series.state === 'finished') return true;
  return (
    series.state === 'cancelled' &&
    series.episodes.every((e) => e.state !== 'queued' && e.state !== 'running')
  );
}

/**
 * One series, live: its progress stream while it runs, polling `series/detail` when the stream
 * drops, until every episode has ended. Everything is the server's, so a reload loses nothing.
 */
export function useSeries(seriesId: number) {
  const task = useTask<SeriesDetail>({
    queryKey: seriesKey(seriesId),
    fetch: (signal) => getSeries({ seriesId }, { signal }),
    ended: seriesEnded,
    intervalMs: SERIES_POLL_MS,
    enabled: seriesId > 0,
    stream: ({ update, fail }) =>
      followSeriesProgress(seriesId, {
        onProgress: update,
        onDone: (answer) => {
          update(answer);
          fail();
        },
        onError: fail,
      }),
  });
  return {
    series: task.data ?? null,
    loading: task.loading,
    error: task.error,
  };
}

/** The user's series, newest first. */
export function useSeriesList() {
  const query = useQuery({
    queryKey: SERIES_LIST_KEY,
    queryFn: ({ signal }) => listSeries(undefined, { signal }),
  });
  return {
    items: query.data ?? [],
    loading: query.isLoading,
    error: query.error ? errorMessage(query.error) : null,
  };
}
