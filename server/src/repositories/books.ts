import { sql, type Kysely, type Transaction } from 'kysely';
import type { BookDetail, BookSummary, ChapterContent } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';
import { containsPattern } from '../db/like';

/** The built-in local library: always platform 1. */
export const LOCAL_LIBRARY_ID = 1;

export interface NewBook {
  title: string;
  author: string;
  intro: string;
  chapters: Array<{ title: string; content: string; wordCount: number }>;
}

/** Rows a user may see: the sample books (no owner) and their own. */
const visibleTo = (userId: number) =>
  sql<boolean>`(books.user_id IS NULL OR books.user_id = ${userId})`;

export function createBooksRepository(db: Kysely<Database>) {
  async function insertBook(
    trx: Transaction<Database>,
    owner: number | null,
    book: NewBook,
    source: { key: string; hash: string } | null,
  ): Promise<number> {
    const row = await trx
      .insertInto('books')
      .values({
        user_id: owner,
        title: book.title,
        author: book.author,
        intro: book.intro,
        chapter_count: book.chapters.length,
        source_key: source?.key ?? null,
        source_hash: source?.hash ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // In slices: one INSERT with thousands of chapters would exceed the parameter limit.
    for (let start = 0; start < book.chapters.length; start += 500) {
      await trx
        .insertInto('book_chapters')
        .values(
          book.chapters.slice(start, start + 500).map((chapter, i) => ({
            book_id: row.id,
            idx: start + i,
            title: chapter.title,
            content: chapter.content,
            word_count: chapter.wordCount,
          })),
        )
        .execute();
    }
    return row.id;
  }

  const summary = (row: {
    id: number;
    platform_id: number;
    title: string;
    author: string;
    intro: string;
    chapter_count: number;
  }): BookSummary => ({
    bookId: row.id,
    platformId: row.platform_id,
    title: row.title,
    author: row.author,
    intro: row.intro,
    chapterCount: row.chapter_count,
  });

  const repo = {
    async create(userId: number, book: NewBook): Promise<number> {
      return db.transaction().execute((trx) => insertBook(trx, userId, book, null));
    },

    /**
     * Loads (or replaces, when the file changed) the sample books. Under an advisory lock, so
     * processes starting together load each once.
     */
    async syncSamples(
      samples: Array<{ key: string; hash: string; book: NewBook }>,
    ): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext('kol_sample_books:' || current_schema()))`.execute(
          trx,
        );
        const existing = await trx
          .selectFrom('books')
          .select(['id', 'source_key', 'source_hash'])
          .where('user_id', 'is', null)
          .execute();
        const loaded: string[] = [];
        for (const sample of samples) {
          const found = existing.find((row) => row.source_key === sample.key);
          if (found?.source_hash === sample.hash) continue;
          // Replaced in place would keep the book id; a changed sample is rare, a new id is fine.
          if (found) await trx.deleteFrom('books').where('id', '=', found.id).execute();
          await insertBook(trx, null, sample.book, { key: sample.key, hash: sample.hash });
          loaded.push(sample.key);
        }
        return loaded;
      });
    },

    /** Books whose title contains `name`; an empty name: every book the user may see. */
    async search(userId: number, name: string, limit = 50): Promise<BookSummary[]> {
      let query = db
        .selectFrom('books')
        .select(['id', 'platform_id', 'title', 'author', 'intro', 'chapter_count'])
        .where(visibleTo(userId));
      if (name) query = query.where('title', 'ilike', containsPattern(name));
      const rows = await query
        // Sample books first, then the user's newest.
        .orderBy(sql`user_id IS NULL`, 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(summary);
    },

    async detail(userId: number, bookId: number): Promise<BookDetail | null> {
      const row = await db
        .selectFrom('books')
        .select(['id', 'platform_id', 'title', 'author', 'intro', 'chapter_count'])
        .where('id', '=', bookId)
        .where(visibleTo(userId))
        .executeTakeFirst();
      if (!row) return null;
      const chapters = await db
        .selectFrom('book_chapters')
        .select(['id', 'idx', 'title', 'word_count'])
        .where('book_id', '=', bookId)
        .orderBy('idx')
        .execute();
      return {
        ...summary(row),
        chapters: chapters.map((c) => ({
          chapterId: c.id,
          index: c.idx,
          title: c.title,
          wordCount: c.word_count,
        })),
      };
    },

    /** Chapters of a visible book, in the book's order; ids not in that book are left out. */
    async chapters(
      userId: number,
      bookId: number,
      chapterIds: number[],
    ): Promise<{ bookTitle: string; chapters: ChapterContent[] } | null> {
      const book = await db
        .selectFrom('books')
        .select(['id', 'title'])
        .where('id', '=', bookId)
        .where(visibleTo(userId))
        .executeTakeFirst();
      if (!book) return null;
      if (chapterIds.length === 0) return { bookTitle: book.title, chapters: [] };
      const rows = await db
        .selectFrom('book_chapters')
        .select(['id', 'title', 'content'])
        .where('book_id', '=', bookId)
        .where('id', 'in', chapterIds)
        .orderBy('idx')
        .execute();
      return {
        bookTitle: book.title,
        chapters: rows.map((r) => ({
          bookId,
          chapterId: r.id,
          title: r.title,
          content: r.content,
        })),
      };
    },
  };
  return repo;
}

export type BooksRepository = ReturnType<typeof createBooksRepository>;
