import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from '@kol/shared-sdk/router';
import { getWorkInfo, isApiError, type OperaDraft, errorMessage } from '@kol/shared-sdk';
import { OPERA_LABEL, OPERA_TYPE, draftFor, draftOfWork, operaStore } from '../lib/opera-flow';

/** The work in the address (`?workId=`), or null before the configuration page makes it. */
function workIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('workId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The real-person drama being made, on any page of its flow: the session's draft when it is the
 * work in the address, else the work read from the server (`work_info`: a fresh tab, a link, or
 * the session holding another drama). Every change is written to the session at once.
 */
export function useOperaDraft() {
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  const [draft, setDraft] = useState<OperaDraft | null>(() => draftFor(workId, operaStore.draft()));
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // The work the state was made for: the first render's is made by useState above.
  const madeFor = useRef<{ workId: number | null; attempt: number }>({ workId, attempt });

  useEffect(() => {
    if (madeFor.current.workId !== workId || madeFor.current.attempt !== attempt) {
      madeFor.current = { workId, attempt };
      setDraft(draftFor(workId, operaStore.draft()));
      setError(null);
    }
    if (workId === null || draftFor(workId, operaStore.draft())) return;
    const controller = new AbortController();
    getWorkInfo({ workId }, { signal: controller.signal }).then(
      (work) => {
        if (work.type !== OPERA_TYPE) {
          setError(`这个作品不是${OPERA_LABEL}，请从视频合成重新开始`);
          return;
        }
        const read = draftOfWork(work);
        operaStore.setDraft(read);
        setDraft(read);
      },
      (reason: unknown) => {
        if (isApiError(reason) && reason.kind === 'aborted') return;
        setError(errorMessage(reason));
      },
    );
    return () => controller.abort();
  }, [workId, attempt]);

  /** Changes the draft and remembers it (nothing is changed while it is still loading). */
  const update = useCallback((change: (current: OperaDraft) => OperaDraft) => {
    setDraft((current) => {
      if (!current) return current;
      const next = change(current);
      operaStore.setDraft(next);
      return next;
    });
  }, []);

  return {
    workId,
    draft,
    update,
    loading: draft === null && error === null,
    error,
    reload: () => setAttempt((n) => n + 1),
  };
}
