import { AnimeCharacterStep } from '../flows/anime/steps/character-step';

/** `/video/animeCharacter` AI漫剧 · 角色: the anime short's roles. */
export function AnimeCharacterPage() {
  return <AnimeCharacterStep />;
}
