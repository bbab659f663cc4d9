import { BookRefused, parseBook, wordCount, type ParsedChapter, type RefusalReason } from './parse';

/**
 * What the book parser's worker thread does (parse-worker.mjs loads this file, and
 * parse-off-thread.ts starts that worker). No thread code here, so it can be called and
 * type-checked like any module.
 */

export interface ParseJobInput {
  bytes: Uint8Array;
  fileName: string;
}

export interface CountedChapter extends ParsedChapter {
  wordCount: number;
}

export interface CountedBook {
  title: string;
  author: string;
  intro: string;
  chapters: CountedChapter[];
}

export type ParseJobResult =
  { ok: true; book: CountedBook } | { ok: false; reason: RefusalReason; message: string };

/**
 * Parses the book and counts each chapter's words here too: the count is a regular expression
 * over every character, as much CPU as the parsing, so it must not run on the server's thread.
 * A refusal is an answer; any other error is thrown (the worker reports it as an error).
 */
export function runParseJob(input: ParseJobInput): ParseJobResult {
  try {
    const book = parseBook(input.bytes, input.fileName);
    return {
      ok: true,
      book: {
        ...book,
        chapters: book.chapters.map((c) => ({ ...c, wordCount: wordCount(c.content) })),
      },
    };
  } catch (error) {
    if (error instanceof BookRefused) {
      return { ok: false, reason: error.reason, message: error.message };
    }
    throw error;
  }
}
