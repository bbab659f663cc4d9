import { StageError } from '../../../tasks/errors';
import type { StageContext } from '../../../tasks/types';
import { groupSentences } from '@kol/shared-sdk/text';
import { splitSentences } from '../../engine/captions';
import type { StageRef } from './outputs';

/** A shot of the pictured pipelines (comics, market) as the `shots` stage stores it. */
export interface PipelineShot {
  index: number;
  caption: string;
  imagePrompt: string;
  sentences: string[];
}

/**
 * Groups sentences into shots of 1 to 3 sentences, keeping each shot's caption short and never
 * cutting a quotation (the rule is the SDK's, shared with the caption page).
 */
export function groupShots(sentences: string[]): PipelineShot[] {
  const groups = groupSentences(sentences);
  return groups.map((group, index) => {
    const caption = group.join('');
    return { index, caption, imagePrompt: caption, sentences: group };
  });
}

/**
 * The shots the creator made on the caption page (update_text), in their order: each caption
 * spoken as its own sentences, each picture drawn from its prompt (the caption when empty).
 * A shot with nothing speakable is left out.
 */
export function editorShots(saved: ReadonlyArray<{ caption: string; imagePrompt: string }>) {
  return saved
    .map((shot) => ({ shot, sentences: splitSentences(shot.caption) }))
    .filter(({ sentences }) => sentences.length > 0)
    .map(({ shot, sentences }, index) => ({
      index,
      caption: sentences.join(''),
      imagePrompt: shot.imagePrompt.trim() || sentences.join(''),
      sentences,
    }));
}

/**
 * The shots of a `shots` stage, for the stages after it. None means the stored task is broken
 * (the stage never stores an empty list): the user is asked to generate again.
 */
export function shotsOf<T>(
  stage: StageRef<{ shots: T[] }>,
  ctx: Pick<StageContext, 'outputs'>,
  empty = '分镜结果为空，请重新生成',
): T[] {
  const shots = stage.output(ctx).shots;
  if (shots.length === 0) throw new StageError(empty);
  return shots;
}
