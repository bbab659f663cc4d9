import type { Material } from '@kol/shared-sdk';
import { useBackgroundList } from '../../../hooks/use-backgrounds';
import { useListStatus } from '../../../hooks/use-list-status';

const NO_MATERIALS: Material[] = [];

/**
 * The background loops the server renders over (`get_system_material_list`): its built-in loops
 * and the user's own uploaded clips, each with the id `backgroundMaterialId` takes. The shared
 * list of `hooks/use-backgrounds`, shaped as the scrolling video's picker takes it.
 */
export function useBackgrounds() {
  const query = useBackgroundList();
  return { materials: query.data ?? NO_MATERIALS, ...useListStatus(query) };
}
