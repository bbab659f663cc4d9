import { getWorkInfo, updateText, type Shot } from '@kol/shared-sdk';
import { textOfShots } from '../../../lib/shots';

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

/** Saves the captions as the work's text and shots (`work_info`, then `update_text`). */
export async function saveCaptions(workId: number, captions: readonly string[]) {
  const work = await getWorkInfo({ workId });
  return updateText({
    workId,
    text: textOfShots(captions),
    shots: shotsOfCaptions(captions, work.shots),
  });
}
