import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  TWEET_SEPARATOR,
  tweetHeading,
  type GenerateTextBody,
  type TextResult,
  type TweetsTaskBody,
} from '@kol/shared-sdk/contracts';
import { badRequest, notFound } from '../http/api-error';
import type { BooksRepository, NewBook } from '../repositories/books';
import { toResult, type WritingTasksRepository } from '../repositories/writing-tasks';
import { splitChapters, wordCount } from './books/parse';
import { defaultLength } from './local/engine';
import type { SourcePart, TextProvider, TextRequest } from './types';
import { RESTART_MESSAGE, type WritingTaskService } from './tasks';

export const BOOK_NOT_FOUND = '没有找到这本书（可能已删除，或不在你的书库中）';
export const TASK_NOT_FOUND = '没有找到这个生成任务';
const CHAPTERS_NOT_FOUND = '所选章节不属于这本书，请重新选择';
const NO_SOURCE = '请提供原文：选择书籍章节，或输入提示、大纲或文本';
const NO_CHAPTERS = '请至少选择一个章节';

/** Reads the sample books (server/assets/sample-books/*.txt) for the library. */
export async function readSampleBooks(
  dir: string,
): Promise<Array<{ key: string; hash: string; book: NewBook }>> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.txt')).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(path.join(dir, name), 'utf8');
      const parsed = splitChapters(text, name.replace(/\.txt$/, ''));
      return {
        key: name,
        hash: createHash('sha256').update(text).digest('hex'),
        book: {
          title: parsed.title,
          author: parsed.author,
          intro: parsed.intro,
          chapters: parsed.chapters.map((c) => ({ ...c, wordCount: wordCount(c.content) })),
        },
      };
    }),
  );
}

export interface WritingDeps {
  books: BooksRepository;
  tasks: WritingTasksRepository;
  runner: WritingTaskService;
  provider: TextProvider;
  /** See AppConfig.writingTaskStaleMs. */
  staleMs: number;
}

/** The writing calls' logic between the routes and the repositories. */
export function createWritingService(deps: WritingDeps) {
  const { books, tasks, runner, provider } = deps;

  async function chapterParts(
    userId: number,
    bookId: number,
    chapterIds: number[],
  ): Promise<{ bookTitle: string; parts: SourcePart[] }> {
    const found = await books.chapters(userId, bookId, chapterIds);
    if (!found) throw notFound(BOOK_NOT_FOUND);
    if (found.chapters.length !== new Set(chapterIds).size) throw notFound(CHAPTERS_NOT_FOUND);
    return {
      bookTitle: found.bookTitle,
      parts: found.chapters.map((c) => ({ title: c.title, text: c.content })),
    };
  }

  async function textRequest(userId: number, body: GenerateTextBody): Promise<TextRequest> {
    const parts: SourcePart[] = [];
    let bookTitle: string | undefined;
    if (body.bookId !== undefined) {
      if (!body.chapterIds || body.chapterIds.length === 0) throw badRequest(NO_CHAPTERS);
      const found = await chapterParts(userId, body.bookId, body.chapterIds);
      bookTitle = found.bookTitle;
      parts.push(...found.parts);
    } else if (body.chapterIds && body.chapterIds.length > 0) {
      throw badRequest('选择章节时请同时指定「书籍」');
    }
    const sourceText = body.sourceText?.trim();
    if (sourceText) parts.push({ title: '', text: sourceText });
    if (parts.length === 0) throw badRequest(NO_SOURCE);
    const kind = body.mode ? body.kind : (body.kind ?? 'promo');
    return {
      ...(kind ? { kind } : {}),
      ...(body.mode ? { mode: body.mode } : {}),
      ...(bookTitle ? { bookTitle } : {}),
      ...(body.genre ? { genre: body.genre } : {}),
      ...(body.tone ? { tone: body.tone } : {}),
      length: body.length ?? defaultLength({ kind, mode: body.mode }),
      source: parts,
    };
  }

  return {
    async generate(
      userId: number,
      body: GenerateTextBody,
      kind: 'generate' | 'async',
    ): Promise<string> {
      const request = await textRequest(userId, body);
      return runner.start(
        {
          userId,
          kind,
          mode: body.mode ?? body.kind ?? 'promo',
          input: body,
          engine: provider.label,
        },
        (signal) => provider.stream(request, signal),
      );
    },

    /**
     * One promo (or other kind) text per chapter, in the book's order, each under its chapter
     * heading 【第一章 …】, separated by a blank line: one task, one text the user can edit.
     */
    async tweets(userId: number, body: TweetsTaskBody): Promise<string> {
      const { bookTitle, parts } = await chapterParts(userId, body.bookId, body.chapterIds);
      const length = body.length ?? defaultLength({ kind: body.kind });
      return runner.start(
        { userId, kind: 'tweets', mode: body.kind, input: body, engine: provider.label },
        async function* (signal) {
          for (const [i, part] of parts.entries()) {
            yield `${i > 0 ? TWEET_SEPARATOR : ''}${tweetHeading(part.title)}`;
            yield* provider.stream(
              {
                kind: body.kind,
                bookTitle,
                ...(body.tone ? { tone: body.tone } : {}),
                length,
                source: [part],
              },
              signal,
            );
          }
        },
      );
    },

    /** The task's state from the database; a dead process's task is marked failed first. */
    async result(userId: number, taskId: string): Promise<TextResult> {
      let row = await tasks.find(taskId);
      if (!row || row.userId !== userId) throw notFound(TASK_NOT_FOUND);
      if ((row.state === 'queued' || row.state === 'running') && !runner.isLive(taskId)) {
        if ((await tasks.failStale(Math.max(deps.staleMs, 0), RESTART_MESSAGE, taskId)) > 0) {
          row = (await tasks.find(taskId)) ?? row;
        }
      }
      return toResult(row);
    },

    async cancel(userId: number, taskId: string): Promise<void> {
      const row = await tasks.find(taskId);
      if (!row || row.userId !== userId) throw notFound(TASK_NOT_FOUND);
      if (row.state !== 'queued' && row.state !== 'running') return;
      if (await runner.cancelLive(taskId)) return;
      // Running in another process: it sees the row is no longer running at its next write.
      await tasks.finish(taskId, { state: 'cancelled' });
    },
  };
}

export type WritingService = ReturnType<typeof createWritingService>;
