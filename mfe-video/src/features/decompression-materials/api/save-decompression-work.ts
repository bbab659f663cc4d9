import {
  idempotencyKeyFor,
  saveText,
  saveVideoInfo,
  type DecompressionDraft,
} from '@kol/shared-sdk';
import type { DecompressionType } from '../../../lib/decompression-flow';

/**
 * Makes (or updates) the work a decompression video is rendered from: its text and type
 * (`save_text`), then its settings with the chosen background (`save_video_info`), as the
 * server's decompression tests prepare a work before `gen_video`. Answers the work id. A new
 * work is made under the draft's `createKey` (with its text), so that a try again after a lost
 * answer, even after a reload, gets the same work.
 */
export async function saveDecompressionWork(input: {
  workId: number | null;
  type: DecompressionType;
  title: string;
  draft: DecompressionDraft;
}): Promise<number> {
  const body = {
    ...(input.workId !== null ? { workId: input.workId } : {}),
    type: input.type,
    title: input.title,
    text: input.draft.text,
  };
  const { createKey } = input.draft;
  const { workId } = await saveText(
    body,
    input.workId === null && createKey
      ? { idempotencyKey: idempotencyKeyFor(createKey, body) }
      : undefined,
  );
  await saveVideoInfo({ workId, settings: input.draft.settings });
  return workId;
}
