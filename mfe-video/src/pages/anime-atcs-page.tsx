import { AnimeAtcsStep } from '../flows/anime/steps/atcs-step';

/** `/video/animeAtcs/:taskId` AI漫剧 · 成片检查: the anime short's final check, then 生成视频. */
export function AnimeAtcsPage() {
  return <AnimeAtcsStep />;
}
