import { useCallback, useState } from 'react';
import { App } from 'antd';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSearchParams } from '@kol/shared-sdk/router';
import { getWorkInfo, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useSavedWork } from '../../../flow-kit/use-saved-work';
import { saveWorkEdit, type WorkParts } from '../../../flow-kit/work-edits';
import { useWorkSaved } from '../../../hooks/work-queries';
import { workIdOf } from '../../../lib/video-address';
import {
  OPERA_LABEL,
  OPERA_TYPE,
  draftFor,
  draftOfWork,
  operaStore,
  type KeptOperaDraft,
} from '../opera-flow';

/**
 * A drama opened from its work (`work_info`), kept in the session as soon as it is read: a fresh
 * tab, a link, or the session holding another drama. Null when the work is not a drama. Read
 * once per arrival and never again by itself (`staleTime: Infinity`, `gcTime: 0`), and never
 * kept over a draft of the work the session already holds (were it read again, by an
 * invalidation of everything): the work would replace what the person is editing.
 */
function operaDraftQuery(workId: number) {
  return queryOptions({
    queryKey: ['opera-draft', workId] as const,
    queryFn: async ({ signal }): Promise<KeptOperaDraft | null> => {
      const work = await getWorkInfo({ workId }, { signal });
      if (work.type !== OPERA_TYPE) return null;
      const read = draftOfWork(work);
      if (!draftFor(workId, operaStore.draft())) operaStore.setDraft(read);
      return read;
    },
    staleTime: Infinity,
    gcTime: 0,
  });
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
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft?.workId ?? null, draft?.saved);
  const workSaved = useWorkSaved();

  // Another work in the address: its draft from the session, else read below.
  const [madeFor, setMadeFor] = useState(workId);
  if (madeFor !== workId) {
    setMadeFor(workId);
    setDraft(draftFor(workId, operaStore.draft()));
  }

  // Which work's draft came from the read below. Its query then stays on: it is never read
  // again by itself, and turning it off would only render the page once more.
  const [openedFor, setOpenedFor] = useState<number | null>(null);
  const read = useQuery({
    ...operaDraftQuery(workId ?? 0),
    enabled: workId !== null && (draft === null || openedFor === workId),
  });
  // The drama as read becomes the page's draft (already in the session).
  if (madeFor === workId && draft === null && read.data && read.data.workId === workId) {
    setOpenedFor(workId);
    setDraft(read.data);
  }
  // Asked again (重新加载): the page shows it loading, not the last failure.
  const error = read.isFetching
    ? null
    : read.data === null
      ? `这个作品不是${OPERA_LABEL}，请从视频合成重新开始`
      : read.error
        ? errorMessage(read.error)
        : null;

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
      workSaved(saved.workId);
      return true;
    },
    [savedWork, message, revisionedSave, takeNewest, update, workSaved],
  );

  return {
    workId,
    draft,
    update,
    loading: draft === null && error === null,
    error,
    reload: () => void read.refetch(),
    /** The work as read or last saved, once known: what a save over it is based on. */
    savedBase: savedWork.base,
    savedProblem: savedWork.problem,
    saveWork,
    takeNewest,
    revisionedSave,
  };
}
