import { useEffect, useState } from 'react';
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

const isNotFound = (error: unknown) => isApiError(error) && error.code === ErrorCode.notFound;

/** The work (`work_info`), its current video (`get_work_result`) and its cut data (`get_cut_video`). */
export function useCutData(workId: number) {
  const [data, setData] = useState<CutData>({ status: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void Promise.allSettled([
      getWorkInfo({ workId }),
      getWorkResult({ workId }),
      getCutVideo({ workId }),
    ]).then(([work, result, cut]) => {
      if (!live) return;
      if (work.status === 'rejected') {
        setData(
          isNotFound(work.reason)
            ? { status: 'not-found', message: errorMessage(work.reason) }
            : { status: 'error', message: errorMessage(work.reason) },
        );
        return;
      }
      if (cut.status === 'rejected') {
        // A type without cut data (scroll; the server says so with a 400) is not a failure.
        const noCut =
          work.value.type === ProjectType.scroll ||
          (isApiError(cut.reason) && cut.reason.code === ErrorCode.badRequest);
        if (!noCut) {
          setData(
            isNotFound(cut.reason)
              ? { status: 'not-found', message: errorMessage(cut.reason) }
              : { status: 'error', message: errorMessage(cut.reason) },
          );
          return;
        }
      }
      setData({
        status: 'ready',
        work: work.value,
        result: result.status === 'fulfilled' ? result.value : null,
        resultError: result.status === 'rejected' ? errorMessage(result.reason) : null,
        cut: cut.status === 'fulfilled' ? cut.value : null,
        noCut: cut.status === 'rejected' ? errorMessage(cut.reason) : null,
      });
    });
    return () => {
      live = false;
    };
  }, [workId, version]);

  return {
    data,
    reload: () => {
      setData({ status: 'loading' });
      setVersion((count) => count + 1);
    },
  };
}
