import { sql, type Kysely } from 'kysely';
import type { Database, StoredCutSegment } from '../db/schema';

export type { StoredCutSegment } from '../db/schema';

export interface CutVideoRecord {
  workId: number;
  segments: StoredCutSegment[];
  voiceId: string;
  musicId: number | null;
  musicVolume: number | null;
  finished: boolean;
  /** One more on every change (a save, audio attached, finished): a save names it. */
  revision: number;
}

/** A segment's speech as generate_cut_tts made it, with the segment's own voice and speed then. */
export interface SpokenSegment {
  index: number;
  text: string;
  audio: string;
  audioDurationMs: number;
  voiceId?: string;
  speed?: number;
}

const COLUMNS = [
  'work_id',
  'segments',
  'voice_id',
  'music_id',
  'music_volume',
  'finished',
  'revision',
] as const;

function record(row: {
  work_id: number;
  segments: StoredCutSegment[];
  voice_id: string;
  music_id: number | null;
  music_volume: number | null;
  finished: boolean;
  revision: number;
}): CutVideoRecord {
  return {
    workId: row.work_id,
    segments: row.segments,
    voiceId: row.voice_id,
    musicId: row.music_id,
    musicVolume: row.music_volume,
    finished: row.finished,
    revision: row.revision,
  };
}

/** The cut-video data of works (migration 009). Every call is scoped by owner. */
export function createCutVideosRepository(db: Kysely<Database>) {
  return {
    async find(userId: number, workId: number): Promise<CutVideoRecord | null> {
      const row = await db
        .selectFrom('cut_videos')
        .select(COLUMNS)
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? record(row) : null;
    },

    /**
     * The first data of a work; when two first calls race, the one stored first wins and both
     * answer it. The caller has checked the work is the user's.
     */
    async init(
      userId: number,
      workId: number,
      data: { segments: StoredCutSegment[]; voiceId: string },
    ): Promise<CutVideoRecord> {
      await db
        .insertInto('cut_videos')
        .values({
          work_id: workId,
          user_id: userId,
          segments: JSON.stringify(data.segments),
          voice_id: data.voiceId,
        })
        .onConflict((oc) => oc.column('work_id').doNothing())
        .execute();
      const row = await this.find(userId, workId);
      if (!row) throw new Error(`cut video of work ${workId} not stored`);
      return row;
    },

    /**
     * Whether the data is still as it was made: nobody saved, spoke or finished it since (every
     * write sets updated_at; the insert sets both to the same now()).
     */
    async untouched(userId: number, workId: number): Promise<boolean> {
      const row = await db
        .selectFrom('cut_videos')
        .select(sql<boolean>`updated_at = created_at`.as('untouched'))
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.untouched === true;
    },

    /**
     * Makes untouched data again (from a newer video), in one statement that does nothing once
     * anyone wrote it: the user's edits are never replaced. It stays untouched; its revision
     * moves on, so a page still showing the data before is told its save is stale. Null:
     * written since, or not theirs.
     */
    async remake(
      userId: number,
      workId: number,
      data: { segments: StoredCutSegment[]; voiceId: string },
    ): Promise<CutVideoRecord | null> {
      const row = await db
        .updateTable('cut_videos')
        .set({
          segments: JSON.stringify(data.segments),
          voice_id: data.voiceId,
          revision: sql<number>`revision + 1`,
        })
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .where(sql<boolean>`updated_at = created_at`)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? record(row) : null;
    },

    /**
     * A person's save: replaces what is given when `revision` is still the stored one ('stale'
     * otherwise: another tab saved, or speech was attached, since the page loaded); any change
     * makes the data unfinished again. Null: not theirs.
     */
    async update(
      userId: number,
      workId: number,
      revision: number,
      patch: {
        segments?: StoredCutSegment[];
        voiceId?: string;
        musicId?: number | null;
        musicVolume?: number | null;
      },
    ): Promise<CutVideoRecord | 'stale' | null> {
      const row = await db
        .updateTable('cut_videos')
        .set({
          ...(patch.segments !== undefined ? { segments: JSON.stringify(patch.segments) } : {}),
          ...(patch.voiceId !== undefined ? { voice_id: patch.voiceId } : {}),
          ...(patch.musicId !== undefined ? { music_id: patch.musicId } : {}),
          ...(patch.musicVolume !== undefined ? { music_volume: patch.musicVolume } : {}),
          finished: false,
          revision: sql<number>`revision + 1`,
          updated_at: sql`now()`,
        })
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .where('revision', '=', revision)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (row) return record(row);
      return (await this.find(userId, workId)) ? 'stale' : null;
    },

    /**
     * Stores spoken audio into the segments whose text, voice and speed are still the ones
     * spoken (an edit made while the speech task ran keeps the newer text and drops the stale
     * audio), in one statement under a row lock so a concurrent edit is never overwritten.
     */
    async attachAudio(
      userId: number,
      workId: number,
      spoken: SpokenSegment[],
      voiceId: string,
    ): Promise<CutVideoRecord | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('cut_videos')
          .select(COLUMNS)
          .where('work_id', '=', workId)
          .where('user_id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return null;
        const segments = row.segments.map((segment, i) => {
          // Still the text, voice and speed that were spoken (the user may have changed them).
          const match = spoken.find(
            (s) =>
              s.index === i &&
              s.text === segment.text &&
              s.voiceId === segment.voiceId &&
              s.speed === segment.speed,
          );
          return match
            ? { ...segment, audio: match.audio, audioDurationMs: match.audioDurationMs }
            : segment;
        });
        const updated = await trx
          .updateTable('cut_videos')
          .set({
            segments: JSON.stringify(segments),
            voice_id: voiceId,
            finished: false,
            revision: sql<number>`revision + 1`,
            updated_at: sql`now()`,
          })
          .where('work_id', '=', workId)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return record(updated);
      });
    },

    /** end_cut_video: marks the data finished. Null: not theirs. */
    async finish(userId: number, workId: number): Promise<CutVideoRecord | null> {
      const row = await db
        .updateTable('cut_videos')
        .set({ finished: true, revision: sql<number>`revision + 1`, updated_at: sql`now()` })
        .where('work_id', '=', workId)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? record(row) : null;
    },
  };
}

export type CutVideosRepository = ReturnType<typeof createCutVideosRepository>;
