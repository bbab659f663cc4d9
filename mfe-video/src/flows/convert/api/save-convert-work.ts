import {
  createWork,
  saveWorkEdit,
  type SaveEdit,
  type SavedWork,
} from '../../../flow-kit/work-edits';
import { CONVERT_TYPE, convertTitle, type KeptConvertDraft } from '../convert-flow';

/**
 * Saves the reverse video as its work: made on the first render (`save_text`, type 3, the
 * script as its text), updated after (`update_text`); then its settings (`save_video_info`:
 * the source clip, aspect, voice, speed, de-duplication presets). A work saved over is saved on
 * the revision the draft was read or last saved at (`saved`), a newer change merged in by
 * `saveEdit`. `onSaved` hears the work as soon as it exists and after each save, so a failure in
 * the second call does not make a second work. Answers the work as saved, or null when the
 * person chose the newest work instead.
 */
export async function saveConvertWork(
  draft: KeptConvertDraft,
  saved: SavedWork | null,
  saveEdit: SaveEdit,
  onSaved: (saved: SavedWork) => void,
): Promise<SavedWork | null> {
  if (!draft.source) throw new Error('请先上传「原视频」');
  const title = convertTitle(draft);
  const settings = { ...draft.settings, sourceVideoUrl: draft.source.url };
  let over = saved;
  let parts = {};
  if (over === null) {
    over = await createWork({ type: CONVERT_TYPE, title, text: draft.script });
    onSaved(over);
  } else {
    parts = { title, text: draft.script };
  }
  const now = await saveWorkEdit(saveEdit, over, { ...parts, settings });
  if (now) onSaved(now);
  return now;
}
