import { saveText, saveVideoInfo, type VideoSettings } from '@kol/shared-sdk';
import type { ComicType } from '../../../lib/comic-flow';

interface ComicWorkInput {
  workId: number | null;
  type: ComicType;
  title: string;
  text: string;
  settings: VideoSettings;
}

/**
 * Makes (or updates) the work the clip is rendered from: its text and type (`save_text`), then
 * its settings (`save_video_info`), the way the server's comics tests prepare a work before
 * `gen_video`. Answers the work id.
 */
export async function saveComicWork(input: ComicWorkInput): Promise<number> {
  const { workId } = await saveText({
    ...(input.workId !== null ? { workId: input.workId } : {}),
    type: input.type,
    title: input.title,
    text: input.text,
  });
  await saveVideoInfo({ workId, settings: input.settings });
  return workId;
}
