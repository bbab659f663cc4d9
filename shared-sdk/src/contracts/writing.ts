import { Type, type Static } from 'typebox';
import { Id, Int, TaskRef, TaskState, Text, endpoint } from './common';

export const BookPlatform = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The built-in local library, always present. */
  builtin: Type.Boolean(),
});
export type BookPlatform = Static<typeof BookPlatform>;

export const ChapterSummary = Type.Object({
  chapterId: Type.Integer(),
  index: Type.Integer({ minimum: 0 }),
  title: Type.String(),
  wordCount: Type.Integer({ minimum: 0 }),
});
export type ChapterSummary = Static<typeof ChapterSummary>;

export const BookSummary = Type.Object({
  bookId: Type.Integer(),
  platformId: Type.Integer(),
  title: Type.String(),
  author: Type.String(),
  intro: Type.String(),
  chapterCount: Type.Integer({ minimum: 0 }),
});
export type BookSummary = Static<typeof BookSummary>;

export const BookDetail = Type.Object({
  ...BookSummary.properties,
  chapters: Type.Array(ChapterSummary),
});
export type BookDetail = Static<typeof BookDetail>;

export const ChapterContent = Type.Object({
  bookId: Type.Integer(),
  chapterId: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
});
export type ChapterContent = Static<typeof ChapterContent>;

/** Kind of text: promo copy, a narration script for a video, or short spoken copy. */
export const TextKind = Type.Union(
  [Type.Literal('promo'), Type.Literal('narration'), Type.Literal('spoken')],
  { title: '文案类型' },
);
export type TextKind = Static<typeof TextKind>;

/** Modes of the creative writing desk. */
export const WRITING_MODES = [
  'write',
  'continue',
  'rewrite',
  'expand',
  'polish',
  'titles',
] as const;
export const WritingMode = Type.Enum(WRITING_MODES, { title: '写作模式' });
export type WritingMode = Static<typeof WritingMode>;

export const GenerateTextBody = Type.Object({
  /** Chapters as the source; or `sourceText` for a prompt, an outline or pasted text. */
  bookId: Type.Optional(Id('书籍')),
  chapterIds: Type.Optional(Type.Array(Id('章节'), { title: '章节', maxItems: 200 })),
  sourceText: Type.Optional(Text('原文', { maxLength: 100_000 })),
  kind: Type.Optional(TextKind),
  mode: Type.Optional(WritingMode),
  genre: Type.Optional(Text('题材', { maxLength: 32 })),
  tone: Type.Optional(Text('风格', { maxLength: 32 })),
  length: Type.Optional(Type.Integer({ minimum: 50, maximum: 10_000, title: '字数' })),
});
export type GenerateTextBody = Static<typeof GenerateTextBody>;

export const TextResult = Type.Object({
  taskId: Type.String(),
  state: TaskState,
  text: Type.String(),
  /** Which engine wrote it: the configured model, or the local extractive writer. */
  engine: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type TextResult = Static<typeof TextResult>;

export const TweetsTaskBody = Type.Object({
  bookId: Id('书籍'),
  chapterIds: Type.Array(Id('章节'), { title: '章节', minItems: 1, maxItems: 200 }),
  kind: TextKind,
  tone: Type.Optional(Text('风格', { maxLength: 32 })),
  length: Type.Optional(Type.Integer({ minimum: 50, maximum: 5000, title: '字数' })),
});
export type TweetsTaskBody = Static<typeof TweetsTaskBody>;

const taskQuery = Type.Object({ taskId: Text('任务编号', { minLength: 1, maxLength: 64 }) });

/** Events of the generation stream at WRITING_STREAM_PATH (see constants.ts). */
export type WritingStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; result: TextResult }
  | { type: 'error'; message: string };

export const writingEndpoints = {
  getPlatforms: endpoint({
    method: 'GET',
    path: '/api/writing/get_platforms',
    summary: '书籍平台',
    response: Type.Array(BookPlatform),
  }),
  search: endpoint({
    method: 'GET',
    path: '/api/writing/search',
    summary: '按书名搜索；书名为空时列出平台书库中的书',
    query: Type.Object({
      // Empty or absent lists the platform's catalogue, so a creator who knows no title can
      // still pick a book.
      bookName: Type.Optional(Text('书名', { maxLength: 100 })),
      platformId: Int('平台'),
    }),
    response: Type.Array(BookSummary),
  }),
  searchCbid: endpoint({
    method: 'GET',
    path: '/api/writing/search_cbid',
    summary: '按书籍编号查找',
    query: Type.Object({
      cbid: Text('书籍编号', { minLength: 1, maxLength: 64 }),
      platformId: Type.Optional(Int('平台')),
    }),
    response: BookDetail,
  }),
  generate: endpoint({
    method: 'POST',
    path: '/api/writing/generate',
    summary: '生成文案（流式）',
    idempotent: true,
    body: GenerateTextBody,
    response: TaskRef,
  }),
  genResult: endpoint({
    method: 'GET',
    path: '/api/writing/gen_result',
    summary: '生成进度与文本',
    query: taskQuery,
    response: TextResult,
  }),
  getChapterContent: endpoint({
    method: 'GET',
    path: '/api/writing/get_chapter_content',
    summary: '章节正文',
    query: Type.Object({ bookId: Id('书籍'), chapterId: Id('章节') }),
    response: ChapterContent,
  }),
  submitTweetsTask: endpoint({
    method: 'POST',
    path: '/api/writing/submit_tweets_task',
    summary: '批量推文任务',
    idempotent: true,
    body: TweetsTaskBody,
    response: TaskRef,
  }),
  generateAsync: endpoint({
    method: 'POST',
    path: '/api/writing/generate_async',
    summary: '长文本异步生成',
    idempotent: true,
    body: GenerateTextBody,
    response: TaskRef,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/writing/cancel',
    summary: '停止生成',
    body: taskQuery,
    response: Type.Null(),
  }),
  uploadBook: endpoint({
    method: 'POST',
    path: '/api/writing/upload_book',
    summary: '上传书籍到本地书库（multipart，字段 file；TXT 或 EPUB，至多 20 MB）',
    idempotent: true,
    response: BookDetail,
  }),
  getGenerateAsyncResult: endpoint({
    method: 'GET',
    path: '/api/writing/get_generate_async_result',
    summary: '异步生成结果',
    query: taskQuery,
    response: TextResult,
  }),
};
