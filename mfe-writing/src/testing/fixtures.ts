import type { BookDetail, BookPlatform, BookSummary, TextResult } from '@kol/shared-sdk';

export const PLATFORMS: BookPlatform[] = [
  { id: 1, name: '本地书库', builtin: true },
  { id: 2, name: '起点中文网', builtin: false },
];

export function demoBookSummary(overrides: Partial<BookSummary> = {}): BookSummary {
  return {
    bookId: 11,
    platformId: 1,
    title: '星河旧梦',
    author: '项目组',
    intro: '一艘旧飞船上的少年与星河的故事。',
    chapterCount: 3,
    ...overrides,
  };
}

export function demoBook(overrides: Partial<BookDetail> = {}): BookDetail {
  return {
    ...demoBookSummary(),
    chapters: [
      { chapterId: 101, index: 0, title: '第一章 醒来', wordCount: 1200 },
      { chapterId: 102, index: 1, title: '第二章 星图', wordCount: 1530 },
      { chapterId: 103, index: 2, title: '第三章 启航', wordCount: 980 },
    ],
    ...overrides,
  };
}

export function textResult(overrides: Partial<TextResult> = {}): TextResult {
  return {
    taskId: 'task-1',
    state: 'succeeded',
    text: '',
    engine: '本地引擎',
    error: null,
    ...overrides,
  };
}
