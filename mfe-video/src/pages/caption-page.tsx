import { CaptionStep } from '../flows/comic/steps/caption-step';

/** `/video/caption` 分镜字幕: the comic clip's shots and captions. */
export function CaptionPage() {
  return <CaptionStep />;
}
