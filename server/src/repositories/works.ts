import { sql, type Kysely } from 'kysely';
import { exportRefusalOf } from '@kol/shared-sdk/contracts';
import type { Shot, VideoSettings, WorkDetail, WorkSummary } from '@kol/shared-sdk/contracts';
import type { Database } from '../db/schema';
import { containsPattern } from '../db/like';

const EXCERPT_CHARS = 80;
const DEFAULT_SETTINGS: VideoSettings = { aspect: '9:16' };

interface WorkRow {
  id: number;
  type: number;
  flag: number;
  title: string;
  text: string;
  settings: Record<string, unknown>;
  shots: unknown[];
  cover_url: string;
  revision: number;
  updated_at: Date;
}

/** What a work's editable columns take; settings merge over the stored ones key by key. */
export interface WorkPatch {
  type?: number;
  title?: string;
  text?: string;
  shots?: Shot[];
  /** Merged over the stored settings: a key not given keeps its value. */
  settings?: Partial<VideoSettings>;
  coverUrl?: string;
  flag?: number;
}

/** A person's save: stored, refused as based on an older revision, or no such work of theirs. */
export type SaveResult = { saved: WorkDetail } | { stale: true } | null;

function columnsOf(patch: WorkPatch) {
  return {
    ...(patch.type !== undefined ? { type: patch.type } : {}),
    ...(patch.title !== undefined ? { title: patch.title } : {}),
    ...(patch.text !== undefined ? { text: patch.text } : {}),
    ...(patch.shots !== undefined ? { shots: JSON.stringify(patch.shots) } : {}),
    ...(patch.settings !== undefined
      ? { settings: sql<string>`settings || ${JSON.stringify(patch.settings)}::jsonb` }
      : {}),
    ...(patch.coverUrl !== undefined ? { cover_url: patch.coverUrl } : {}),
    ...(patch.flag !== undefined ? { flag: patch.flag } : {}),
    revision: sql<number>`revision + 1`,
    updated_at: sql<Date>`now()`,
  };
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
    revision: row.revision,
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
  'revision',
  'updated_at',
] as const;

const HAS_TEXT = sql<boolean>`works.text ~ '[^[:space:]]'`;
/**
 * What a listed work has: a text, shots, a task (something made or being made), or the
 * creator's own material in its settings (a market work keeps its text empty on purpose and
 * its pitch in the template fields; pictures, drama scenes, a source clip). A work with none of
 * these is an abandoned start (a page left at its confirmation, before works were made on
 * confirming): no list shows it, though it stays readable by its id.
 */
const HAS_CONTENT = sql<boolean>`(
  ${HAS_TEXT}
  OR jsonb_array_length(works.shots) > 0
  OR EXISTS (SELECT 1 FROM video_tasks AS t WHERE t.work_id = works.id)
  OR coalesce(works.settings->'templateFields', '{}'::jsonb) <> '{}'::jsonb
  OR coalesce(works.settings->'imageUrls', '[]'::jsonb) <> '[]'::jsonb
  OR coalesce(works.settings->'scenes', '[]'::jsonb) <> '[]'::jsonb
  OR coalesce(works.settings->>'sourceVideoUrl', '') <> ''
)`;

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

    /**
     * A change made by the server (a flag, the settings of a work it just created): applied
     * whatever the revision, which it moves on. Null when the work is not the user's.
     */
    async update(userId: number, workId: number, patch: WorkPatch): Promise<WorkDetail | null> {
      const row = await db
        .updateTable('works')
        .set(columnsOf(patch))
        .where('id', '=', workId)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? detail(row) : null;
    },

    /**
     * A person's save, based on the revision their page loaded: applied in one statement only
     * while that revision is still the newest, so it never lands over a change made since
     * (another tab, a picture drawn, a render's pictures).
     */
    async saveEdit(
      userId: number,
      workId: number,
      revision: number,
      patch: WorkPatch,
    ): Promise<SaveResult> {
      const row = await db
        .updateTable('works')
        .set(columnsOf(patch))
        .where('id', '=', workId)
        .where('user_id', '=', userId)
        .where('revision', '=', revision)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (row) return { saved: detail(row) };
      return (await this.find(userId, workId)) ? { stale: true } : null;
    },

    /**
     * Changes the shots under a row lock: `change` gets the shots as they are now (not as a task
     * read them when it started) and answers the new list, or null to leave them. The way for a
     * writer of the server's to change only its part (one shot's picture, the pictures of a
     * render) without losing an edit or another picture made meanwhile.
     */
    async changeShots(
      userId: number,
      workId: number,
      change: (shots: Shot[]) => Shot[] | null,
    ): Promise<WorkDetail | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('works')
          .select(COLUMNS)
          .where('id', '=', workId)
          .where('user_id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return null;
        const next = change(row.shots as Shot[]);
        if (!next) return detail(row);
        const updated = await trx
          .updateTable('works')
          .set(columnsOf({ shots: next }))
          .where('id', '=', workId)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return detail(updated);
      });
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
        /** Only works with a text (My copy lists texts). */
        withText?: boolean;
        /** Only the episodes of this series (of the user's), in episode order. */
        seriesId?: number;
        pageIndex: number;
        pageSize: number;
      },
    ): Promise<{ items: WorkSummary[]; total: number }> {
      let query = db
        .selectFrom('works')
        .where('user_id', '=', userId)
        .where(filter.withText ? HAS_TEXT : HAS_CONTENT);
      if (filter.type !== undefined) query = query.where('type', '=', filter.type);
      if (filter.flag !== undefined) query = query.where('flag', '=', filter.flag);
      if (filter.seriesId !== undefined) {
        const seriesId = filter.seriesId;
        query = query.where('id', 'in', (eb) =>
          eb.selectFrom('series_episodes').select('work_id').where('series_id', '=', seriesId),
        );
      }
      const keyword = filter.keyword?.trim();
      if (keyword) {
        const pattern = containsPattern(keyword);
        query = query.where((eb) =>
          eb.or([eb('title', 'ilike', pattern), eb('text', 'ilike', pattern)]),
        );
      }
      const [rows, count] = await Promise.all([
        query
          // The newest video or merge task says what the work is doing; the newest one that
          // succeeded says what it has made (a running regeneration keeps the last video).
          .leftJoinLateral(
            (eb) =>
              eb
                .selectFrom('video_tasks as t')
                .select([
                  't.id as task_id',
                  't.state as task_state',
                  't.stage as task_stage',
                  't.progress as task_progress',
                  't.error as task_error',
                  sql<string>`coalesce((SELECT s.name FROM video_task_stages s
                    WHERE s.task_id = t.id AND s.state = 'failed'
                    ORDER BY s.position LIMIT 1), '')`.as('failed_stage'),
                ])
                .whereRef('t.work_id', '=', 'works.id')
                .where('t.kind', 'in', ['video', 'merge'])
                .orderBy('t.created_at', 'desc')
                .limit(1)
                .as('latest'),
            (join) => join.onTrue(),
          )
          .leftJoinLateral(
            (eb) =>
              eb
                .selectFrom('video_tasks as m')
                .select([
                  sql<string>`coalesce(m.outputs->>'videoUrl', '')`.as('video_url'),
                  sql<string>`coalesce(m.outputs->>'srtUrl', '')`.as('srt_url'),
                  sql<string>`coalesce(m.outputs->>'coverUrl', '')`.as('made_cover_url'),
                  sql<number>`coalesce((m.outputs->>'videoDurationMs')::int, 0)`.as('duration_ms'),
                  // The quality report's problem count (a video made before reports: 0).
                  sql<number>`CASE WHEN jsonb_typeof(m.outputs->'report'->'problems') = 'array'
                    THEN jsonb_array_length(m.outputs->'report'->'problems') ELSE 0 END`.as(
                    'report_problems',
                  ),
                  // Whether it can be exported (exportRefusalOf): its timeline, and any filter.
                  sql<boolean>`m.outputs ? 'timeline'`.as('has_timeline'),
                  sql<boolean>`(coalesce((m.outputs->'timeline'->>'filtered')::boolean, false)
                    OR jsonb_path_exists(m.outputs, '$.timeline.segments[*] ? (@.filtered == true)'))`.as(
                    'timeline_filtered',
                  ),
                  sql<boolean>`coalesce((m.outputs->>'timelineUnkept')::boolean, false)`.as(
                    'timeline_unkept',
                  ),
                ])
                .whereRef('m.work_id', '=', 'works.id')
                .where('m.kind', 'in', ['video', 'merge'])
                .where('m.state', '=', 'succeeded')
                .orderBy('m.created_at', 'desc')
                .limit(1)
                .as('made'),
            (join) => join.onTrue(),
          )
          .select(['id', 'type', 'flag', 'title', 'cover_url', 'revision', 'updated_at'])
          .select([
            'latest.task_id',
            'latest.task_state',
            'latest.task_stage',
            'latest.task_progress',
            'latest.task_error',
            'latest.failed_stage',
            'made.video_url',
            'made.srt_url',
            'made.made_cover_url',
            'made.duration_ms',
            'made.report_problems',
            'made.has_timeline',
            'made.timeline_filtered',
            'made.timeline_unkept',
          ])
          .select(sql<string>`left(text, ${EXCERPT_CHARS})`.as('excerpt'))
          .$if(filter.seriesId !== undefined, (q) =>
            q.orderBy(sql`(SELECT idx FROM series_episodes e WHERE e.work_id = works.id)`),
          )
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
          // The cover the user chose, else the newest video's.
          coverUrl: row.cover_url || (row.made_cover_url ?? ''),
          taskId: row.task_id ?? null,
          // A work never generated reads as get_work_result answers it: nothing running.
          state: row.task_state ?? 'succeeded',
          stage: row.task_stage ?? '',
          progress: row.task_progress ?? 0,
          failedStage: row.task_state === 'failed' ? (row.failed_stage ?? '') : '',
          error: row.task_state === 'failed' ? (row.task_error ?? null) : null,
          videoUrl: row.video_url ?? '',
          srtUrl: row.srt_url ?? '',
          durationMs: row.duration_ms ?? 0,
          reportProblems: row.report_problems ?? 0,
          exportRefusal: row.video_url
            ? exportRefusalOf(row.type, {
                hasTimeline: row.has_timeline ?? false,
                filtered: row.timeline_filtered ?? false,
                unkeptMedia: row.timeline_unkept ?? false,
              })
            : null,
          revision: row.revision,
          updateTime: row.updated_at.toISOString(),
        })),
        total: count.total,
      };
    },
  };
}

export type WorksRepository = ReturnType<typeof createWorksRepository>;
