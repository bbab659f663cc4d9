import {
  createWork,
  saveWorkEdit,
  type SaveEdit,
  type SavedWork,
} from '../../../flow-kit/work-edits';
import type { DecompressionType } from '../decompression-flow';
import type { DecompressionDraft } from '../draft';

/**
 * Makes (or updates) the work a decompression video is rendered from: its text and type
 * (`save_text`), then its settings with the chosen background (`save_video_info`), as the
 * server's decompression tests prepare a work before `gen_video`. A new work is made under the
 * draft's `createKey` (with its text), so that a try again after a lost answer, even after a
 * reload, gets the same work. A work saved over is saved on the revision the page last saved or
 * read it at (`saved`), a newer change merged in by `saveEdit`. Answers the work as saved, or
 * null when the person chose the newest instead.
 */
export async function saveDecompressionWork(
  input: {
    saved: SavedWork | null;
    type: DecompressionType;
    title: string;
    draft: DecompressionDraft;
  },
  saveEdit: SaveEdit,
): Promise<SavedWork | null> {
  const parts = {
    type: input.type,
    title: input.title,
    text: input.draft.text,
    settings: input.draft.settings,
  };
  if (input.saved) return saveWorkEdit(saveEdit, input.saved, parts);
  const { createKey } = input.draft;
  return createWork(parts, createKey ? { createKey } : {});
}
