import { DedupClipStep } from '../flows/dedup/steps/clip-step';

/**
 * `/video/cutDuplicates/:id` and, outside the layout, `/video/duplicatesEdit/:id`: one reverse
 * video's de-dup, then 生成视频.
 */
export function DedupClipPage({ outside = false }: { outside?: boolean }) {
  return <DedupClipStep outside={outside} />;
}
