import type { Shot, WorkDetail } from '@kol/shared-sdk';
import { saveTextEdit, type SaveEdit } from '../../../flow-kit/work-edits';
import { splitIntoShots, textOfShots } from '../shots';

/**
 * The work's shots from the captions: a shot whose caption is unchanged keeps what was made of
 * it (its picture prompt, picture, roles); a new or edited one starts with its caption as the
 * picture prompt, as the server's pipeline does.
 */
export function shotsOfCaptions(captions: readonly string[], previous: readonly Shot[]): Shot[] {
  const byCaption = new Map(previous.map((shot) => [shot.caption, shot]));
  return captions.map((caption, index) => {
    const kept = byCaption.get(caption);
    return kept
      ? { ...kept, index }
      : {
          index,
          caption,
          imagePrompt: caption,
          roleIds: [],
          imageUrl: '',
          audioUrl: '',
          durationMs: 0,
          needsRegeneration: false,
        };
  });
}

/** What the caption page saves of a work: its text and its shots. */
const partsOf = (work: WorkDetail) => ({ text: work.text, shots: work.shots });

/**
 * Saves the captions as the work's text and shots (`update_text`), based on the work as the page
 * loaded it (its shots keep what was made of them, its revision names what the edit is based on).
 * A picture drawn since is merged in; a change of the same shots elsewhere asks the person.
 * Answers the saved work, or null when the person chose the newest work instead.
 */
export function saveCaptions(
  saveEdit: SaveEdit,
  work: WorkDetail,
  captions: readonly string[],
): Promise<WorkDetail | null> {
  return saveTextEdit(saveEdit, work.workId, {
    base: partsOf(work),
    edited: { text: textOfShots(captions), shots: shotsOfCaptions(captions, work.shots) },
    revision: work.revision,
    pick: partsOf,
  });
}

/** The captions of a work as saved: its shots', else its text split as the server splits it. */
export function captionsOfWork(work: WorkDetail): string[] {
  return work.shots.length > 0 ? work.shots.map((shot) => shot.caption) : splitIntoShots(work.text);
}
