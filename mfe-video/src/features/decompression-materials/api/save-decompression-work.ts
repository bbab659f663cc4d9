import { saveText, saveVideoInfo, type DecompressionDraft } from '@kol/shared-sdk';
import type { DecompressionType } from '../../../lib/decompression-flow';

/**
 * Makes (or updates) the work a decompression video is rendered from: its text and type
 * (`save_text`), then its settings with the chosen background (`save_video_info`), as the
 * server's decompression tests prepare a work before `gen_video`. Answers the work id.
 */
export async function saveDecompressionWork(input: {
  workId: number | null;
  type: DecompressionType;
  title: string;
  draft: DecompressionDraft;
}): Promise<number> {
  const { workId } = await saveText({
    ...(input.workId !== null ? { workId: input.workId } : {}),
    type: input.type,
    title: input.title,
    text: input.draft.text,
  });
  await saveVideoInfo({ workId, settings: input.draft.settings });
  return workId;
}
