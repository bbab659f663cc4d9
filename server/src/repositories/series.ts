import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { QuotaBucket } from './quotas';

export type StoredSeriesState = 'draft' | 'running' | 'paused' | 'cancelled';

export interface SeriesRow {
  id: number;
  user_id: number;
  title: string;
  type: number;
  narration: string;
  settings: Record<string, unknown>;
  cast_task_id: string;
  cast_engine: string;
  state: StoredSeriesState;
  created_at: Date;
}

export interface EpisodeRow {
  series_id: number;
  idx: number;
  work_id: number;
  title: string;
  source_title: string;
  narrated: boolean;
  reserved_bucket: QuotaBucket | null;
  started: boolean;
  cancelled: boolean;
}

export interface NewEpisode {
  workId: number;
  sourceTitle: string;
  sourceText: string;
  narrated: boolean;
}

const SERIES_COLUMNS = [
  'id',
  'user_id',
  'title',
  'type',
  'narration',
  'settings',
  'cast_task_id',
  'cast_engine',
  'state',
  'created_at',
] as const;

const asBucket = (value: string | null): QuotaBucket | null =>
  value === 'gen' || value === 'reward' || value === 'merge' ? value : null;

/** The user's series and their episodes. Every call is scoped by owner, or by a series id the caller owns. */
export function createSeriesRepository(db: Kysely<Database>) {
  const waiting = () =>
    db
      .selectFrom('series_episodes as e')
      .innerJoin('series as s', 's.id', 'e.series_id')
      .where('s.state', '=', 'running')
      .where('e.started_at', 'is', null)
      .where('e.cancelled_at', 'is', null);

  return {
    async create(
      userId: number,
      series: {
        title: string;
        type: number;
        narration: string;
        settings: Record<string, unknown>;
        castTaskId: string;
        castEngine: string;
      },
      episodes: NewEpisode[],
    ): Promise<number> {
      const row = await db
        .insertInto('series')
        .values({
          user_id: userId,
          title: series.title,
          type: series.type,
          narration: series.narration,
          settings: JSON.stringify(series.settings),
          cast_task_id: series.castTaskId,
          cast_engine: series.castEngine,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('series_episodes')
        .values(
          episodes.map((episode, i) => ({
            series_id: row.id,
            idx: i + 1,
            work_id: episode.workId,
            source_title: episode.sourceTitle,
            source_text: episode.sourceText,
            narrated_at: episode.narrated ? sql<Date>`now()` : null,
          })),
        )
        .execute();
      return row.id;
    },

    async find(userId: number, seriesId: number): Promise<SeriesRow | null> {
      const row = await db
        .selectFrom('series')
        .select(SERIES_COLUMNS)
        .where('id', '=', seriesId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? { ...row, state: row.state as StoredSeriesState } : null;
    },

    /** Locks the series row for the rest of the transaction (a state change and its episodes). */
    async lock(userId: number, seriesId: number): Promise<SeriesRow | null> {
      const row = await db
        .selectFrom('series')
        .select(SERIES_COLUMNS)
        .where('id', '=', seriesId)
        .where('user_id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
      return row ? { ...row, state: row.state as StoredSeriesState } : null;
    },

    async list(userId: number): Promise<SeriesRow[]> {
      const rows = await db
        .selectFrom('series')
        .select(SERIES_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute();
      return rows.map((row) => ({ ...row, state: row.state as StoredSeriesState }));
    },

    /** Episodes of series (of one user), in order, with their works' titles. */
    async episodes(seriesIds: number[]): Promise<EpisodeRow[]> {
      if (seriesIds.length === 0) return [];
      const rows = await db
        .selectFrom('series_episodes as e')
        .innerJoin('works as w', 'w.id', 'e.work_id')
        .select([
          'e.series_id',
          'e.idx',
          'e.work_id',
          'w.title',
          'e.source_title',
          'e.reserved_bucket',
          sql<boolean>`e.narrated_at IS NOT NULL`.as('narrated'),
          sql<boolean>`e.started_at IS NOT NULL`.as('started'),
          sql<boolean>`e.cancelled_at IS NOT NULL`.as('cancelled'),
        ])
        .where('e.series_id', 'in', seriesIds)
        .orderBy('e.series_id')
        .orderBy('e.idx')
        .execute();
      return rows.map((row) => ({ ...row, reserved_bucket: asBucket(row.reserved_bucket) }));
    },

    async setState(seriesId: number, state: StoredSeriesState): Promise<void> {
      await db
        .updateTable('series')
        .set({ state, updated_at: sql`now()` })
        .where('id', '=', seriesId)
        .execute();
    },

    /** Sets aside a spent count for an episode not started (start). */
    async reserve(seriesId: number, idx: number, bucket: QuotaBucket): Promise<void> {
      await db
        .updateTable('series_episodes')
        .set({ reserved_bucket: bucket })
        .where('series_id', '=', seriesId)
        .where('idx', '=', idx)
        .execute();
    },

    /**
     * Cancels the episodes not started (all of them, or from `fromIdx` on); answers the counts
     * they had set aside, for the caller to give back in the same transaction.
     */
    async cancelWaiting(seriesId: number, fromIdx = 1): Promise<QuotaBucket[]> {
      const rows = await db
        .selectFrom('series_episodes')
        .select(['idx', 'reserved_bucket'])
        .where('series_id', '=', seriesId)
        .where('idx', '>=', fromIdx)
        .where('started_at', 'is', null)
        .where('cancelled_at', 'is', null)
        .forUpdate()
        .execute();
      if (rows.length === 0) return [];
      await db
        .updateTable('series_episodes')
        .set({ cancelled_at: sql`now()`, reserved_bucket: null })
        .where('series_id', '=', seriesId)
        .where(
          'idx',
          'in',
          rows.map((row) => row.idx),
        )
        .execute();
      return rows.flatMap((row) => {
        const bucket = asBucket(row.reserved_bucket);
        return bucket ? [bucket] : [];
      });
    },

    /**
     * Marks an episode started, if it was not: answers the count it had set aside (or null
     * when it had none), or false when another advance started it first.
     */
    async markStarted(seriesId: number, idx: number): Promise<QuotaBucket | null | false> {
      const before = await db
        .selectFrom('series_episodes')
        .select('reserved_bucket')
        .where('series_id', '=', seriesId)
        .where('idx', '=', idx)
        .where('started_at', 'is', null)
        .where('cancelled_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!before) return false;
      await db
        .updateTable('series_episodes')
        .set({ started_at: sql`now()`, reserved_bucket: null })
        .where('series_id', '=', seriesId)
        .where('idx', '=', idx)
        .execute();
      return asBucket(before.reserved_bucket);
    },

    /** The narration is the work's text now ('promo': written just before the episode starts). */
    async markNarrated(seriesId: number, idx: number): Promise<void> {
      await db
        .updateTable('series_episodes')
        .set({ narrated_at: sql`now()` })
        .where('series_id', '=', seriesId)
        .where('idx', '=', idx)
        .execute();
    },

    /** Serialises the advances of one user's series across processes, to the transaction's end. */
    async lockUser(userId: number): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`kol_series_user:${userId}`}))`.execute(db);
    },

    /** The user's series episodes whose work has a video task queued or running. */
    async activeEpisodes(userId: number): Promise<number> {
      const row = await db
        .selectFrom('series_episodes as e')
        .innerJoin('series as s', 's.id', 'e.series_id')
        .where('s.user_id', '=', userId)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('video_tasks as t')
              .select(sql`1`.as('one'))
              .whereRef('t.work_id', '=', 'e.work_id')
              .where('t.kind', '=', 'video')
              .where('t.state', 'in', ['queued', 'running']),
          ),
        )
        .select(sql<number>`count(*)::int`.as('count'))
        .executeTakeFirstOrThrow();
      return row.count;
    },

    /** The next episodes of the user's running series that may start: oldest series first. */
    async nextWaiting(
      userId: number,
      limit: number,
    ): Promise<Array<{ seriesId: number; idx: number; workId: number; type: number }>> {
      if (limit <= 0) return [];
      const rows = await waiting()
        .where('s.user_id', '=', userId)
        .where('e.narrated_at', 'is not', null)
        .select(['e.series_id', 'e.idx', 'e.work_id', 's.type'])
        .orderBy('s.id')
        .orderBy('e.idx')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        seriesId: row.series_id,
        idx: row.idx,
        workId: row.work_id,
        type: row.type,
      }));
    },

    /** Users with an episode waiting in a running series. */
    async usersWaiting(): Promise<number[]> {
      const rows = await waiting().select('s.user_id').distinct().execute();
      return rows.map((row) => row.user_id);
    },

    /** The first episode of each running series whose narration is still to be written. */
    async toNarrate(): Promise<
      Array<{
        userId: number;
        seriesId: number;
        idx: number;
        workId: number;
        title: string;
        sourceTitle: string;
        sourceText: string;
      }>
    > {
      const rows = await waiting()
        .where('e.narrated_at', 'is', null)
        .select([
          's.user_id',
          'e.series_id',
          'e.idx',
          'e.work_id',
          's.title',
          'e.source_title',
          'e.source_text',
        ])
        .distinctOn('e.series_id')
        .orderBy('e.series_id')
        .orderBy('e.idx')
        .execute();
      return rows.map((row) => ({
        userId: row.user_id,
        seriesId: row.series_id,
        idx: row.idx,
        workId: row.work_id,
        title: row.title,
        sourceTitle: row.source_title,
        sourceText: row.source_text,
      }));
    },

    /** The series an episode's work belongs to, if any. */
    async ofWork(workId: number): Promise<{ seriesId: number; userId: number } | null> {
      const row = await db
        .selectFrom('series_episodes as e')
        .innerJoin('series as s', 's.id', 'e.series_id')
        .select(['s.id', 's.user_id'])
        .where('e.work_id', '=', workId)
        .executeTakeFirst();
      return row ? { seriesId: row.id, userId: row.user_id } : null;
    },
  };
}

export type SeriesRepository = ReturnType<typeof createSeriesRepository>;
