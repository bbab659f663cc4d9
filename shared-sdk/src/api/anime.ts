import type { animeEndpoints } from '../contracts/anime';
import { defineCall } from './define-call';

type E = typeof animeEndpoints;

export const adaptAnimeScript = defineCall<E['animeScript']>('POST', '/api/video/anime_script');
export const startAnimeStoryboard = defineCall<E['animeStoryboard']>(
  'POST',
  '/api/video/anime_storyboard',
  'idempotent',
);
