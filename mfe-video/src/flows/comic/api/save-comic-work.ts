import type { VideoSettings } from '@kol/shared-sdk';
import {
  createWork,
  saveWorkEdit,
  type SaveEdit,
  type SavedWork,
} from '../../../flow-kit/work-edits';
import type { ComicType } from '../comic-flow';

interface ComicWorkInput {
  /** The work as the page loaded it (its revision, what the edit is based on); null: a new one. */
  saved: SavedWork | null;
  type: ComicType;
  title: string;
  text: string;
  settings: VideoSettings;
}

/**
 * Makes (or updates) the work the clip is rendered from: its text and type (`save_text`), then
 * its settings (`save_video_info`), the way the server's comics tests prepare a work before
 * `gen_video`. A work made here has revision 1; one saved over is saved on the revision the page
 * loaded, a newer change merged in by `saveEdit`. Answers the work as saved, or null when the
 * person chose the newest work instead.
 */
export async function saveComicWork(
  input: ComicWorkInput,
  saveEdit: SaveEdit,
): Promise<SavedWork | null> {
  const { type, title, text, settings } = input;
  return input.saved
    ? saveWorkEdit(saveEdit, input.saved, { type, title, text, settings })
    : createWork({ type, title, text, settings });
}
