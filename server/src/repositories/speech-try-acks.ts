import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Acknowledgements of failed async_tts_try tasks (tts_list/update_tts_try_failed). */
export function createSpeechTryAcksRepository(db: Kysely<Database>) {
  return {
    /** Records it once; a second acknowledgement of the same task changes nothing. */
    async acknowledge(userId: number, taskId: string): Promise<void> {
      await db
        .insertInto('speech_try_acks')
        .values({ task_id: taskId, user_id: userId })
        .onConflict((oc) => oc.column('task_id').doNothing())
        .execute();
    },

    async isAcknowledged(userId: number, taskId: string): Promise<boolean> {
      const row = await db
        .selectFrom('speech_try_acks')
        .select('task_id')
        .where('task_id', '=', taskId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type SpeechTryAcksRepository = ReturnType<typeof createSpeechTryAcksRepository>;
