import { AnimeCaptionStep } from '../flows/anime/steps/caption-step';

/** `/video/animeCaption` AI漫剧 · 剧本: the anime short's script. */
export function AnimeCaptionPage() {
  return <AnimeCaptionStep />;
}
