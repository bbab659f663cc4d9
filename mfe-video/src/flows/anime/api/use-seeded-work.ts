import { useCallback, useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getWorkInfo, errorMessage, type WorkDetail } from '@kol/shared-sdk';
import { workKey } from '../../../hooks/work-queries';
import { ANIME_TYPE } from '../anime-flow';

/**
 * The anime work an editing page edits from (`work_info` under the shared work key). `seed`
 * hears the work only on the reads that are the page's to edit from: on arrival, and after
 * `reload` (重新加载, 载入最新内容). Another page's read of the same key never replaces what the
 * person is editing behind their back.
 */
export function useSeededAnimeWork(workId: number, seed: (work: WorkDetail) => void) {
  const latestSeed = useRef(seed);
  useEffect(() => {
    latestSeed.current = seed;
  });
  const seeding = useRef(true);
  const query = useQuery({
    queryKey: workKey(workId),
    queryFn: async ({ signal }) => {
      const seedThis = seeding.current;
      const work = await getWorkInfo({ workId }, { signal });
      if (seedThis && work.type === ANIME_TYPE) {
        seeding.current = false;
        latestSeed.current(work);
      }
      return work;
    },
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnReconnect: false,
  });
  const { refetch } = query;
  /** Reads the work again, and the page edits from what it reads. */
  const reload = useCallback(() => {
    seeding.current = true;
    void refetch();
  }, [refetch]);
  const loadError = query.error
    ? errorMessage(query.error)
    : query.data && query.data.type !== ANIME_TYPE
      ? '这个作品不是 AI漫剧，请从视频合成重新开始'
      : null;
  return { query, reload, loadError };
}
