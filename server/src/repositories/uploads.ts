import { sql, type Kysely } from 'kysely';
import type { UploadedImage } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

export function createUploadsRepository(db: Kysely<Database>) {
  return {
    async record(userId: number, url: string, name: string): Promise<void> {
      await db.insertInto('user_uploads').values({ user_id: userId, url, name }).execute();
    },

    /** A page of one user's uploads, newest first. */
    async list(
      userId: number,
      page: { pageIndex: number; pageSize: number },
    ): Promise<{ items: UploadedImage[]; total: number }> {
      const query = db.selectFrom('user_uploads').where('user_id', '=', userId);
      const [rows, count] = await Promise.all([
        query
          .select(['url', 'name', 'created_at'])
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.pageSize)
          .offset((page.pageIndex - 1) * page.pageSize)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((row) => ({
          url: row.url,
          name: row.name,
          createTime: row.created_at.toISOString(),
        })),
        total: count.total,
      };
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
