import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ErrorCode,
  ProjectType,
  getCutVideo,
  getWorkInfo,
  getWorkResult,
  isApiError,
  type CutVideo,
  type WorkDetail,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';
import { workResultKey } from './task-state';

export type CutData =
  | { status: 'loading' }
  /** Not a work of the user's (the server answers both alike). */
  | { status: 'not-found'; message: string }
  | { status: 'error'; message: string }
  /**
   * The work; its newest video (null when that could not be read: `resultError`); its cut
   * video, or null for a type without one (scroll) with the server's reason in `noCut`.
   */
  | {
      status: 'ready';
      work: WorkDetail;
      result: WorkResult | null;
      resultError: string | null;
      cut: CutVideo | null;
      noCut: string | null;
    };

type Opened = Extract<CutData, { status: 'ready' }>;

const isNotFound = (error: unknown) => isApiError(error) && error.code === ErrorCode.notFound;

/** The query key of the editor's opening load of a work. */
export const cutEditorKey = (workId: number) => ['cut-editor', workId] as const;

/**
 * The work (`work_info`), its current video (`get_work_result`) and its cut data (`get_cut_video`),
 * asked together: the editor opens on all three. A refusal of the work (or of the cut data, for a
 * type that has one) is the query's error.
 *
 * Read once per opening and dropped when the editor goes (`gcTime` 0, never stale while open):
 * the editor holds the person's edits from this answer on, so it must neither open on an older
 * copy from the cache nor be fetched again behind its back. The current video goes into the
 * cache under the work's task key, where its progress is followed from.
 */
export function useCutData(workId: number) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: cutEditorKey(workId),
    queryFn: async ({ signal }): Promise<Opened> => {
      const [work, result, cut] = await Promise.allSettled([
        getWorkInfo({ workId }, { signal }),
        getWorkResult({ workId }, { signal }),
        getCutVideo({ workId }, { signal }),
      ]);
      if (work.status === 'rejected') throw work.reason;
      // A type without cut data (scroll; the server says so with a 400) is not a failure.
      const noCut =
        cut.status === 'rejected' &&
        (work.value.type === ProjectType.scroll ||
          (isApiError(cut.reason) && cut.reason.code === ErrorCode.badRequest));
      if (cut.status === 'rejected' && !noCut) throw cut.reason;
      // The progress follower starts from this answer, never from an older one kept in the cache.
      if (result.status === 'fulfilled') client.setQueryData(workResultKey(workId), result.value);
      else client.removeQueries({ queryKey: workResultKey(workId), exact: true });
      return {
        status: 'ready',
        work: work.value,
        result: result.status === 'fulfilled' ? result.value : null,
        resultError: result.status === 'rejected' ? errorMessage(result.reason) : null,
        cut: cut.status === 'fulfilled' ? cut.value : null,
        noCut: cut.status === 'rejected' ? errorMessage(cut.reason) : null,
      };
    },
    staleTime: Infinity,
    gcTime: 0,
  });

  let data: CutData;
  if (query.data) data = query.data;
  else if (query.error)
    data = {
      status: isNotFound(query.error) ? 'not-found' : 'error',
      message: errorMessage(query.error),
    };
  else data = { status: 'loading' };

  return {
    data,
    /** Opens the work again from the server (the spinner first, then a fresh editor). */
    reload: () => void client.resetQueries({ queryKey: cutEditorKey(workId), exact: true }),
  };
}
