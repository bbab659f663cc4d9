import { saveText, saveVideoInfo, updateText, type ConvertDraft } from '@kol/shared-sdk';
import { CONVERT_TYPE, convertTitle } from '../../../lib/convert-flow';

/**
 * Saves the reverse video as its work: made on the first render (`save_text`, type 3, the
 * script as its text), updated after (`update_text`); then its settings (`save_video_info`:
 * the source clip, aspect, voice, speed, de-duplication presets). `onMade` hears the new id as
 * soon as the work exists, so a failure in the second call does not make a second work.
 */
export async function saveConvertWork(
  draft: ConvertDraft,
  onMade: (workId: number) => void,
): Promise<number> {
  if (!draft.source) throw new Error('请先上传「原视频」');
  const title = convertTitle(draft);
  let workId = draft.workId;
  if (workId === null) {
    ({ workId } = await saveText({ type: CONVERT_TYPE, title, text: draft.script }));
    onMade(workId);
  } else {
    await updateText({ workId, title, text: draft.script });
  }
  await saveVideoInfo({
    workId,
    settings: { ...draft.settings, sourceVideoUrl: draft.source.url },
  });
  return workId;
}
