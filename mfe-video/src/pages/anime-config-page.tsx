import { AnimeConfigStep } from '../flows/anime/steps/config-step';

/** `/video/animeConfig` AI漫剧 · 视频配置: the anime short's settings and voices. */
export function AnimeConfigPage() {
  return <AnimeConfigStep />;
}
