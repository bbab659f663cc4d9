import { WRITING_STREAM_PATH } from '../constants';
import type { TextResult, writingEndpoints } from '../contracts/writing';
import { httpClient, type CallOptions } from '../http/client';
import { forgetSettledKeys } from '../http/idempotency';
import { defineCall } from './define-call';

type E = typeof writingEndpoints;

export const getPlatforms = defineCall<E['getPlatforms']>('GET', '/api/writing/get_platforms');
export const searchBooks = defineCall<E['search']>('GET', '/api/writing/search');
export const searchBookById = defineCall<E['searchCbid']>('GET', '/api/writing/search_cbid');
export const generateText = defineCall<E['generate']>(
  'POST',
  '/api/writing/generate',
  'idempotent',
);
export const getGenResult = defineCall<E['genResult']>('GET', '/api/writing/gen_result');
export const getChapterContent = defineCall<E['getChapterContent']>(
  'GET',
  '/api/writing/get_chapter_content',
);
export const submitTweetsTask = defineCall<E['submitTweetsTask']>(
  'POST',
  '/api/writing/submit_tweets_task',
  'idempotent',
);
export const generateTextAsync = defineCall<E['generateAsync']>(
  'POST',
  '/api/writing/generate_async',
  'idempotent',
);
export const getGenerateAsyncResult = defineCall<E['getGenerateAsyncResult']>(
  'GET',
  '/api/writing/get_generate_async_result',
);

const cancelGenerationCall = defineCall<E['cancel']>('POST', '/api/writing/cancel');
/** Stops a generation; a start after it is a new one, even of the same text. */
export const cancelGeneration: typeof cancelGenerationCall = (input, options) =>
  cancelGenerationCall(input, options).finally(forgetSettledKeys);

const uploadBookCall = defineCall<E['uploadBook']>(
  'POST',
  '/api/writing/upload_book',
  'idempotent',
);

/** Uploads a TXT or EPUB book (multipart field `file`) to the user's local library. */
export function uploadBook(file: Blob, fileName: string, options?: CallOptions) {
  const form = new FormData();
  form.append('file', file, fileName);
  return (
    uploadBookCall as unknown as (
      body: FormData,
      o?: CallOptions,
    ) => ReturnType<typeof uploadBookCall>
  )(form, options);
}

export interface GenerationStreamHandlers {
  onDelta: (text: string) => void;
  onDone: (result: TextResult) => void;
  onError: (message: string) => void;
}

/**
 * Follows a generation as it is written (server-sent events). Answers a function that stops
 * listening; the generation itself goes on until `cancelGeneration`.
 */
export function streamGeneration(taskId: string, handlers: GenerationStreamHandlers): () => void {
  const base = httpClient.defaults.baseURL ?? '';
  const source = new EventSource(
    `${base}${WRITING_STREAM_PATH}?taskId=${encodeURIComponent(taskId)}`,
    {
      withCredentials: true,
    },
  );
  const parse = (event: MessageEvent<string>) => JSON.parse(event.data) as Record<string, unknown>;
  source.addEventListener('delta', (event) => handlers.onDelta(String(parse(event).text ?? '')));
  source.addEventListener('done', (event) => {
    source.close();
    handlers.onDone(parse(event).result as TextResult);
  });
  source.addEventListener('error', (event) => {
    source.close();
    const data = (event as MessageEvent<string>).data;
    handlers.onError(
      data
        ? String(parse(event as MessageEvent<string>).message ?? '生成失败')
        : '连接中断，请重试',
    );
  });
  return () => source.close();
}
