import {
  createWork,
  saveWorkEdit,
  type SaveEdit,
  type SavedWork,
  type WorkParts,
} from '../../../flow-kit/work-edits';
import type { OperaDraft } from '../draft';
import { OPERA_TYPE, operaSettingsToSave, operaTitleOf, scriptText } from '../opera-flow';

/**
 * Makes (or updates) the drama's work: its type, title and script as text (`save_text`), then
 * its settings (`save_video_info`), the way the server's drama tests prepare a work. Before the
 * script is written the text is the title (the contract wants a text; a title holds no
 * 「角色：台词」 line, so it never reads back as a script). A work saved over is saved on the
 * revision the draft was read or last saved at (`saved`), a newer change merged in by `saveEdit`.
 * Answers the work as saved, or null when the person chose the newest work instead.
 */
export async function saveOperaWork(
  draft: OperaDraft,
  title: string,
  saved: SavedWork | null,
  saveEdit: SaveEdit,
  /** Told the work as soon as it exists and after each save, so a failed second call never makes another. */
  onSaved: (saved: SavedWork) => void,
): Promise<SavedWork | null> {
  const words = { type: OPERA_TYPE, title, text: scriptText(draft.scenes) || title };
  let over = saved;
  let parts: WorkParts = words;
  if (over === null) {
    over = await createWork(words);
    onSaved(over);
    parts = {};
  }
  const now = await saveWorkEdit(saveEdit, over, {
    ...parts,
    settings: operaSettingsToSave(draft),
  });
  if (now) onSaved(now);
  return now;
}

/** The title a work is saved with: the creator's, else one from the script. */
export function titleToSave(draft: OperaDraft): string {
  return draft.title.trim() || operaTitleOf(draft);
}
