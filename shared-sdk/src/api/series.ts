import { SERIES_DOWNLOAD_PATH, SERIES_PROGRESS_STREAM_PATH } from '../constants';
import type { SeriesDetail, seriesEndpoints } from '../contracts/series';
import { httpClient } from '../http/client';
import { defineCall } from './define-call';
import { followProgress, type ProgressHandlers } from './progress-stream';

type E = typeof seriesEndpoints;

export const planSeries = defineCall<E['plan']>('POST', '/api/series/plan');
export const createSeries = defineCall<E['create']>('POST', '/api/series/create', 'idempotent');
export const startSeries = defineCall<E['start']>('POST', '/api/series/start', 'idempotent');
export const getSeries = defineCall<E['detail']>('GET', '/api/series/detail');
export const listSeries = defineCall<E['list']>('GET', '/api/series/list');
export const pauseSeries = defineCall<E['pause']>('POST', '/api/series/pause');
export const resumeSeries = defineCall<E['resume']>('POST', '/api/series/resume');
export const cancelSeries = defineCall<E['cancel']>('POST', '/api/series/cancel');
export const retrySeriesEpisode = defineCall<E['retryEpisode']>(
  'POST',
  '/api/series/retry_episode',
  'idempotent',
);

/**
 * Follows a series as its episodes are made (server-sent events). Answers a function that stops
 * listening; the series goes on regardless.
 */
export function followSeriesProgress(
  seriesId: number,
  handlers: ProgressHandlers<SeriesDetail>,
): () => void {
  return followProgress(`${SERIES_PROGRESS_STREAM_PATH}?seriesId=${seriesId}`, handlers);
}

/** Where the browser downloads the finished episodes as one ZIP (a plain link: it streams). */
export function seriesDownloadUrl(seriesId: number): string {
  return `${httpClient.defaults.baseURL ?? ''}${SERIES_DOWNLOAD_PATH}?seriesId=${seriesId}`;
}
