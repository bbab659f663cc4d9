import { OperaCaptionStep } from '../flows/drama/steps/caption-step';

/** `/video/operaCaption` 真人短剧 · 剧本台词: the drama's script by scenes. */
export function OperaCaptionPage() {
  return <OperaCaptionStep />;
}
