import { saveText, saveVideoInfo, type OperaDraft } from '@kol/shared-sdk';
import { OPERA_TYPE, operaSettingsToSave, operaTitleOf, scriptText } from '../../../lib/opera-flow';

/**
 * Makes (or updates) the drama's work: its type, title and script as text (`save_text`), then
 * its settings (`save_video_info`), the way the server's drama tests prepare a work. Before the
 * script is written the text is the title (the contract wants a text; a title holds no
 * 「角色：台词」 line, so it never reads back as a script). Answers the work id.
 */
export async function saveOperaWork(
  draft: OperaDraft,
  title: string,
  /** Told the work's id as soon as it exists, so a failed second call never makes another. */
  onMade: (workId: number) => void,
): Promise<number> {
  const text = scriptText(draft.scenes) || title;
  const { workId } = await saveText({
    ...(draft.workId !== null ? { workId: draft.workId } : {}),
    type: OPERA_TYPE,
    title,
    text,
  });
  if (workId !== draft.workId) onMade(workId);
  await saveVideoInfo({ workId, settings: operaSettingsToSave(draft) });
  return workId;
}

/** The title a work is saved with: the creator's, else one from the script. */
export function titleToSave(draft: OperaDraft): string {
  return draft.title.trim() || operaTitleOf(draft);
}
