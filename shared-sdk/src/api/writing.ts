import type { writingEndpoints } from '../contracts/writing';
import { defineCall } from './define-call';

type E = typeof writingEndpoints;

export const getPlatforms = defineCall<E['getPlatforms']>('GET', '/api/writing/get_platforms');
export const searchBooks = defineCall<E['search']>('GET', '/api/writing/search');
export const searchBookById = defineCall<E['searchCbid']>('GET', '/api/writing/search_cbid');
export const generateText = defineCall<E['generate']>('POST', '/api/writing/generate');
export const getGenResult = defineCall<E['genResult']>('GET', '/api/writing/gen_result');
export const getChapterContent = defineCall<E['getChapterContent']>(
  'GET',
  '/api/writing/get_chapter_content',
);
export const submitTweetsTask = defineCall<E['submitTweetsTask']>(
  'POST',
  '/api/writing/submit_tweets_task',
);
export const generateTextAsync = defineCall<E['generateAsync']>(
  'POST',
  '/api/writing/generate_async',
);
export const getGenerateAsyncResult = defineCall<E['getGenerateAsyncResult']>(
  'GET',
  '/api/writing/get_generate_async_result',
);
