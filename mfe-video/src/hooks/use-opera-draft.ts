import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useSearchParams } from '@kol/shared-sdk/router';
import { getWorkInfo, isApiError, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import {
  OPERA_LABEL,
  OPERA_TYPE,
  draftFor,
  draftOfWork,
  operaStore,
  type KeptOperaDraft,
} from '../lib/opera-flow';
import { saveWorkEdit, type WorkParts } from '../lib/work-edits';
import { useSavedWork } from './use-saved-work';

/** The work in the address (`?workId=`), or null before the configuration page makes it. */
function workIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('workId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The real-person drama being made, on any page of its flow: the session's draft when it is the
 * work in the address, else the work read from the server (`work_info`: a fresh tab, a link, or
 * the session holding another drama). Every change is written to the session at once.
 *
 * The draft keeps the work as it was read or last saved (`saved`): each page's save over the work
 * is based on that revision, a reload's too, and merged with what changed since elsewhere.
 */
export function useOperaDraft() {
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  const [draft, setDraft] = useState<KeptOperaDraft | null>(() =>
    draftFor(workId, operaStore.draft()),
  );
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft?.workId ?? null, draft?.saved);

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
  const update = useCallback((change: (current: KeptOperaDraft) => KeptOperaDraft) => {
    setDraft((current) => {
      if (!current) return current;
      const next = change(current);
      operaStore.setDraft(next);
      return next;
    });
  }, []);

  /** The newest work replaces the draft (the person chose it over their edit). */
  const takeNewest = useCallback(async () => {
    const newest = await savedWork.takeNewest();
    if (!newest) return;
    const read = draftOfWork(newest);
    operaStore.setDraft(read);
    setDraft(read);
  }, [savedWork]);

  /**
   * Saves parts of the drama onto its work, based on the revision the draft was read or last
   * saved at. True once saved (the new revision kept with the draft); false when it cannot be
   * saved yet (said why) or the person chose the newest work, which then replaces the draft. A
   * refusal of the server's rejects.
   */
  const saveWork = useCallback(
    async (parts: WorkParts): Promise<boolean> => {
      const base = await savedWork.base();
      if (!base) {
        void message.error(savedWork.problem());
        return false;
      }
      const saved = await saveWorkEdit(revisionedSave, base, parts);
      if (!saved) {
        await takeNewest();
        return false;
      }
      update((current) => ({ ...current, saved }));
      return true;
    },
    [savedWork, message, revisionedSave, takeNewest, update],
  );

  return {
    workId,
    draft,
    update,
    loading: draft === null && error === null,
    error,
    reload: () => setAttempt((n) => n + 1),
    /** The work as read or last saved, once known: what a save over it is based on. */
    savedBase: savedWork.base,
    savedProblem: savedWork.problem,
    saveWork,
    takeNewest,
    revisionedSave,
  };
}
