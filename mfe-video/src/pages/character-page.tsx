import { CharacterStep } from '../flows/comic/steps/character-step';

/** `/video/character` 角色: the comic clip's roles. */
export function CharacterPage() {
  return <CharacterStep />;
}
