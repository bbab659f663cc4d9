import { useEffect, useState } from 'react';
import {
  getNewBgMusicList,
  getSystemMaterialList,
  getTtsList,
  type Material,
  type Music,
  type Voice,
  errorMessage,
} from '@kol/shared-sdk';

interface OptionList<T> {
  items: T[];
  loading: boolean;
  error: string | null;
}

/** One list the editor offers, fetched once (`enabled` false: not fetched). */
function useOptionList<T>(fetch: () => Promise<T[]>, enabled = true): OptionList<T> {
  const [list, setList] = useState<OptionList<T>>({ items: [], loading: enabled, error: null });

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetch().then(
      (items) => live && setList({ items, loading: false, error: null }),
      (reason: unknown) =>
        live && setList({ items: [], loading: false, error: errorMessage(reason) }),
    );
    return () => {
      live = false;
    };
    // The fetch is one of the module's functions below; it never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled]);

  return list;
}

const fetchVoices = () => getTtsList({});
const fetchMusic = () => getNewBgMusicList();
const fetchMaterials = () =>
  getSystemMaterialList({ pageIndex: 1, pageSize: 200 }).then((page) => page.items);

/** The voices (`tts_list`) a segment may be spoken with. */
export const useVoices = (): OptionList<Voice> => useOptionList(fetchVoices);

/** The background music (`new_bg_music_list`). */
export const useMusic = (): OptionList<Music> => useOptionList(fetchMusic);

/** The background materials (`get_system_material_list`), for segments that show one. */
export const useMaterials = (enabled: boolean): OptionList<Material> =>
  useOptionList(fetchMaterials, enabled);
