import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getNewBgMusicList, searchMusic, type Music } from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';

/**
 * The query key of the music library (`['music']`) or of a search in it: invalidating
 * `['music']` reaches both.
 */
export const musicKey = (keyword: string) =>
  keyword ? (['music', 'search', keyword] as const) : (['music'] as const);

const NO_TRACKS: Music[] = [];

/**
 * The music library (`new_bg_music_list`), or what a keyword finds in it (`search_music`). The
 * tracks shown stay while another keyword is asked for.
 */
export function useMusic(keyword: string) {
  const query = useQuery({
    queryKey: musicKey(keyword),
    queryFn: ({ signal }) =>
      keyword ? searchMusic({ keyword }, { signal }) : getNewBgMusicList(undefined, { signal }),
    placeholderData: keepPreviousData,
  });
  return { tracks: query.data ?? NO_TRACKS, ...useListStatus(query) };
}
