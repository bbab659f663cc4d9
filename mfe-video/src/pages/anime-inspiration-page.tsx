import { AnimeInspirationStep } from '../flows/anime/steps/inspiration-step';

/** `/video/animeInspiration` AI漫剧 · 创意: the anime short's first step. */
export function AnimeInspirationPage() {
  return <AnimeInspirationStep />;
}
