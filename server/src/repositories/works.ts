import { sql, type Kysely } from 'kysely';
import type { Shot, VideoSettings, WorkDetail, WorkSummary } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';

const EXCERPT_CHARS = 80;
const DEFAULT_SETTINGS: VideoSettings = { aspect: '9:16' };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

interface WorkRow {
  id: number;
  type: number;
  flag: number;
  title: string;
  text: string;
  settings: Record<string, unknown>;
  shots: unknown[];
  cover_url: string;
  updated_at: Date;
}

function detail(row: WorkRow): WorkDetail {
  return {
    workId: row.id,
    type: row.type,
    flag: row.flag,
    title: row.title,
    text: row.text,
    // Stored as the client sent them, validated by the contract on the way in.
    settings: { ...DEFAULT_SETTINGS, ...(row.settings as Partial<VideoSettings>) },
    shots: row.shots as Shot[],
    coverUrl: row.cover_url,
    updateTime: row.updated_at.toISOString(),
  };
}

const COLUMNS = [
  'id',
  'type',
  'flag',
  'title',
  'text',
  'settings',
  'shots',
  'cover_url',
  'updated_at',
] as const;

/** My copy: saved texts (and, later, video works) of one user. Every call is scoped by owner. */
export function createWorksRepository(db: Kysely<Database>) {
  return {
    async create(
      userId: number,
      work: { type: number; title: string; text: string },
    ): Promise<number> {
      const row = await db
        .insertInto('works')
        .values({ user_id: userId, type: work.type, title: work.title, text: work.text })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Answers null when the work does not exist or is not the user's. */
    async update(
      userId: number,
      workId: number,
      patch: {
        type?: number;
        title?: string;
        text?: string;
        shots?: Shot[];
        /** Merged over the stored settings: a key not given keeps its value. */
        settings?: Partial<VideoSettings>;
        coverUrl?: string;
        flag?: number;
      },
    ): Promise<WorkDetail | null> {
      const row = await db
        .updateTable('works')
        .set({
          ...(patch.type !== undefined ? { type: patch.type } : {}),
          ...(patch.title !== undefined ? { title: patch.title } : {}),
          ...(patch.text !== undefined ? { text: patch.text } : {}),
          ...(patch.shots !== undefined ? { shots: JSON.stringify(patch.shots) } : {}),
          ...(patch.settings !== undefined
            ? { settings: sql`settings || ${JSON.stringify(patch.settings)}::jsonb` }
            : {}),
          ...(patch.coverUrl !== undefined ? { cover_url: patch.coverUrl } : {}),
          ...(patch.flag !== undefined ? { flag: patch.flag } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', workId)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? detail(row) : null;
    },

    async find(userId: number, workId: number): Promise<WorkDetail | null> {
      const row = await db
        .selectFrom('works')
        .select(COLUMNS)
        .where('id', '=', workId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? detail(row) : null;
    },

    async delete(userId: number, workId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('works')
        .where('id', '=', workId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async list(
      userId: number,
      filter: {
        type?: number;
        flag?: number;
        keyword?: string;
        pageIndex: number;
        pageSize: number;
      },
    ): Promise<{ items: WorkSummary[]; total: number }> {
      let query = db.selectFrom('works').where('user_id', '=', userId);
      if (filter.type !== undefined) query = query.where('type', '=', filter.type);
      if (filter.flag !== undefined) query = query.where('flag', '=', filter.flag);
      const keyword = filter.keyword?.trim();
      if (keyword) {
        const pattern = `%${escapeLike(keyword)}%`;
        query = query.where((eb) =>
          eb.or([eb('title', 'ilike', pattern), eb('text', 'ilike', pattern)]),
        );
      }
      const [rows, count] = await Promise.all([
        query
          .select(['id', 'type', 'flag', 'title', 'cover_url', 'updated_at'])
          .select(sql<string>`left(text, ${EXCERPT_CHARS})`.as('excerpt'))
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .limit(filter.pageSize)
          .offset((filter.pageIndex - 1) * filter.pageSize)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((row) => ({
          workId: row.id,
          type: row.type,
          flag: row.flag,
          title: row.title,
          excerpt: row.excerpt,
          coverUrl: row.cover_url,
          // A saved text is finished as it is; video works will carry their task's state.
          state: 'succeeded' as const,
          stage: '',
          progress: 0,
          updateTime: row.updated_at.toISOString(),
        })),
        total: count.total,
      };
    },
  };
}

export type WorksRepository = ReturnType<typeof createWorksRepository>;
