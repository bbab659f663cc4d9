import { AnimeStoryboardStep } from '../flows/anime/steps/storyboard-step';

/** `/video/animeStoryboard/:taskId` AI漫剧 · 分镜: the anime short's storyboard. */
export function AnimeStoryboardPage() {
  return <AnimeStoryboardStep />;
}
