import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { workQuery } from '../../../hooks/work-queries';
import { ANIME_TYPE } from '../anime-flow';
import { parseScriptText, type ScriptLine } from '../anime-script';

const NO_LINES: ScriptLine[] = [];

/** An anime short's work (`work_info`) and its script's lines, for the steps that read them. */
export function useAnimeWork(workId: number | null) {
  const client = useQueryClient();
  const query = useQuery({ ...workQuery(workId ?? 0), enabled: workId !== null });
  const read = workId !== null && query.data?.workId === workId ? query.data : null;
  const anime = read !== null && read.type === ANIME_TYPE ? read : null;
  const lines = useMemo(() => (anime ? parseScriptText(anime.text) : NO_LINES), [anime]);

  /** The work as it now is (saved by the page): what every page showing it shows. */
  const setWork = useCallback(
    (next: WorkDetail) => client.setQueryData(workQuery(next.workId).queryKey, next),
    [client],
  );

  const error =
    read !== null && read.type !== ANIME_TYPE
      ? '这个作品不是 AI漫剧，请从视频合成重新开始'
      : query.error
        ? errorMessage(query.error)
        : null;

  return { work: anime, setWork, lines, error, reload: () => void query.refetch() };
}
