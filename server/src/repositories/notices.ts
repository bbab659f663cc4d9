import { sql, type Kysely } from 'kysely';
import type { Notice, NoticeCategory } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

export interface NoticePage {
  categoryId: number | null;
  pageIndex: number;
  pageSize: number;
}

export interface PublishedNotice extends Omit<Notice, 'status'> {
  categoryName: string;
}

export function createNoticesRepository(db: Kysely<Database>) {
  return {
    /** A page of notices, newest first, with this user's read state. */
    async list(userId: number, page: NoticePage): Promise<{ items: Notice[]; total: number }> {
      let query = db.selectFrom('notices');
      if (page.categoryId !== null)
        query = query.where('notices.category_id', '=', page.categoryId);
      const [rows, count] = await Promise.all([
        query
          .leftJoin('notice_reads', (join) =>
            join
              .onRef('notice_reads.notice_id', '=', 'notices.id')
              .on('notice_reads.user_id', '=', userId),
          )
          .select([
            'notices.id',
            'notices.category_id',
            'notices.title',
            'notices.content',
            'notices.updated_at',
            'notice_reads.read_at',
          ])
          .orderBy('notices.updated_at', 'desc')
          .orderBy('notices.id', 'desc')
          .limit(page.pageSize)
          .offset((page.pageIndex - 1) * page.pageSize)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((row) => ({
          id: row.id,
          categoryId: row.category_id,
          title: row.title,
          content: row.content,
          status: row.read_at ? 1 : 0,
          updateTime: row.updated_at.toISOString(),
        })),
        total: count.total,
      };
    },

    async unreadCount(userId: number): Promise<number> {
      const row = await db
        .selectFrom('notices')
        .select(sql<number>`count(*)::int`.as('count'))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('notice_reads')
                .select('notice_reads.notice_id')
                .whereRef('notice_reads.notice_id', '=', 'notices.id')
                .where('notice_reads.user_id', '=', userId),
            ),
          ),
        )
        .executeTakeFirstOrThrow();
      return row.count;
    },

    async exists(noticeId: number): Promise<boolean> {
      const row = await db
        .selectFrom('notices')
        .select('id')
        .where('id', '=', noticeId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async markRead(userId: number, noticeId: number): Promise<void> {
      await db
        .insertInto('notice_reads')
        .values({ user_id: userId, notice_id: noticeId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    /** Marks every notice published so far read; later ones arrive unread. */
    async markAllRead(userId: number): Promise<void> {
      await db
        .insertInto('notice_reads')
        .columns(['user_id', 'notice_id'])
        .expression((eb) =>
          eb.selectFrom('notices').select([sql.lit(userId).as('user_id'), 'notices.id']),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    async categories(): Promise<NoticeCategory[]> {
      const rows = await db.selectFrom('notice_categories').selectAll().orderBy('id').execute();
      return rows.map((row) => ({
        id: row.id,
        categoryName: row.category_name,
        categoryIcon: row.category_icon,
      }));
    },

    /** Publishes a notice in the named category, creating the category on first use. */
    async publish(input: {
      title: string;
      content: string;
      categoryName: string;
      categoryIcon?: string;
    }): Promise<PublishedNotice> {
      return db.transaction().execute(async (trx) => {
        // DO UPDATE (a no-op) rather than DO NOTHING so that RETURNING gives the existing row too.
        const category = await trx
          .insertInto('notice_categories')
          .values({ category_name: input.categoryName, category_icon: input.categoryIcon ?? '' })
          .onConflict((oc) =>
            oc.column('category_name').doUpdateSet({ category_name: input.categoryName }),
          )
          .returning(['id', 'category_name'])
          .executeTakeFirstOrThrow();
        const notice = await trx
          .insertInto('notices')
          .values({ category_id: category.id, title: input.title, content: input.content })
          .returningAll()
          .executeTakeFirstOrThrow();
        return {
          id: notice.id,
          categoryId: category.id,
          categoryName: category.category_name,
          title: notice.title,
          content: notice.content,
          updateTime: notice.updated_at.toISOString(),
        };
      });
    },
  };
}

export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
