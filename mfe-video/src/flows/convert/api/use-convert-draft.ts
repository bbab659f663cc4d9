import { useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { savedWorkOf } from '../../../flow-kit/work-edits';
import {
  CONVERT_TYPE,
  convertDraftFor,
  emptyConvertDraft,
  readConvertDraft,
  writeConvertDraft,
  type KeptConvertDraft,
} from '../convert-flow';

/**
 * A saved reverse video as the page edits it: its clip, script and settings, and the work as read
 * (what saving over it is based on).
 */
export function draftOfWork(work: WorkDetail): KeptConvertDraft {
  const { aspect, voiceId, speed, dedup, sourceVideoUrl } = work.settings;
  const url = sourceVideoUrl?.trim();
  return {
    workId: work.workId,
    title: work.title,
    source: url ? { url, name: work.title, durationMs: null } : null,
    // Read from the clip again only when asked (重新提取): the script is the work's text.
    extracted: null,
    script: work.text,
    settings: {
      ...emptyConvertDraft().settings,
      aspect,
      ...(voiceId !== undefined ? { voiceId } : {}),
      ...(speed !== undefined ? { speed } : {}),
      ...(dedup !== undefined ? { dedup } : {}),
    },
    saved: savedWorkOf(work),
  };
}

/**
 * A saved reverse video opened from its work (`work_info`), kept in `KOL_CONVERT_DRAFT` as soon
 * as it is read; the work's title when it is of another type (nothing kept). Read once per
 * arrival and never again by itself (`staleTime: Infinity`, `gcTime: 0`), and never kept over a
 * draft of the work the session already holds (were it read again, by an invalidation of
 * everything): the work would replace what the person is editing.
 */
function convertDraftQuery(workId: number) {
  return queryOptions({
    queryKey: ['convert-draft', workId] as const,
    queryFn: async ({ signal }) => {
      const work = await getWorkInfo({ workId }, { signal });
      if (work.type !== CONVERT_TYPE) return { refused: work.title };
      const read = draftOfWork(work);
      if (!convertDraftFor(workId, readConvertDraft())) writeConvertDraft(read);
      return { read };
    },
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * The reverse video's draft. Every change is written to `KOL_CONVERT_DRAFT` at once, so a
 * reload loses nothing; with a work in the address and no draft of it in the session (a fresh
 * tab, the works list), the work is read back (`work_info`).
 */
export function useConvertDraft(workId: number | null) {
  const [draft, setDraft] = useState<KeptConvertDraft | null>(() =>
    convertDraftFor(workId, readConvertDraft()),
  );
  // Which work's draft came from the read below. Its query then stays on: it is never read
  // again by itself, and turning it off would only render the page once more.
  const [openedFor, setOpenedFor] = useState<number | null>(null);
  const opened = useQuery({
    ...convertDraftQuery(workId ?? 0),
    enabled: workId !== null && (draft === null || openedFor === workId),
  });
  const answer = opened.data;
  // The work as read becomes the page's draft (already in the session).
  if (draft === null && answer?.read && answer.read.workId === workId) {
    setOpenedFor(workId);
    setDraft(answer.read);
  }
  // Tried again (retry): the page shows it loading, not the last failure.
  const loadError = opened.isFetching
    ? null
    : answer?.refused !== undefined
      ? `「${answer.refused}」不是反推视频，不能在这里打开`
      : opened.error
        ? `作品加载失败：${errorMessage(opened.error)}`
        : null;

  const update = (change: (current: KeptConvertDraft) => KeptConvertDraft) =>
    setDraft((current) => {
      if (!current) return current;
      const next = change(current);
      writeConvertDraft(next);
      return next;
    });

  const retry = () => void opened.refetch();

  return { draft, loadError, update, retry };
}
