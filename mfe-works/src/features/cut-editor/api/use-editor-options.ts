import { useQuery, type QueryKey } from '@tanstack/react-query';
import {
  ProjectType,
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

/**
 * The shared lists' query keys: the keys the video remote's pages use for the same lists
 * (`['voices']` every voice, `['music']` the library, `['backgrounds', …]` the materials), so a
 * list one remote loaded is in the cache when the editor asks for it, and an invalidation of
 * one (an upload) reaches the editor's too.
 */
export const VOICES_KEY = ['voices'] as const;
/** The voices of one language, under the key the video remote's pickers use for it. */
export const voicesKey = (language: VoiceLanguage) =>
  language ? ([...VOICES_KEY, language] as const) : VOICES_KEY;
export const MUSIC_KEY = ['music'] as const;
/** The system background materials, a first page large enough for every one a cut may use. */
const MATERIALS_PAGE = { pageIndex: 1, pageSize: 200 } as const;
export const MATERIALS_KEY = ['backgrounds', MATERIALS_PAGE] as const;

/** One list the editor offers (`enabled` false: not fetched). */
function useOptionList<T>(
  queryKey: QueryKey,
  fetch: (signal: AbortSignal) => Promise<T[]>,
  enabled = true,
): OptionList<T> {
  const query = useQuery({ queryKey, queryFn: ({ signal }) => fetch(signal), enabled });
  return {
    items: query.data ?? [],
    loading: query.isLoading,
    error: query.error ? errorMessage(query.error) : null,
  };
}

/** A language the voices are asked for in; null: every voice. */
export type VoiceLanguage = 'en' | null;

/**
 * The language of a work's voices: English for the overseas comic clip and decompression video
 * (their narration is English; their configuration pages offer English voices only), else
 * every voice.
 */
export const voiceLanguageOf = (type: number): VoiceLanguage =>
  type === ProjectType.comicsOverseas || type === ProjectType.decompressionOverseas ? 'en' : null;

/** The voices (`tts_list`, of a language when given) a segment may be spoken with. */
export const useVoices = (language: VoiceLanguage = null): OptionList<Voice> =>
  useOptionList(voicesKey(language), (signal) =>
    getTtsList(language ? { language } : {}, { signal }),
  );

/** The background music (`new_bg_music_list`). */
export const useMusic = (): OptionList<Music> =>
  useOptionList(MUSIC_KEY, (signal) => getNewBgMusicList(undefined, { signal }));

/** The background materials (`get_system_material_list`), for segments that show one. */
export const useMaterials = (enabled: boolean): OptionList<Material> =>
  useOptionList(
    MATERIALS_KEY,
    (signal) => getSystemMaterialList(MATERIALS_PAGE, { signal }).then((page) => page.items),
    enabled,
  );
