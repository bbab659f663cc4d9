import { useState } from 'react';
import { App } from 'antd';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useVideoHandover } from '../../../flow-kit/text-source/use-video-handover';
import { useSavedWork } from '../../../flow-kit/use-saved-work';
import {
  createWork,
  saveWorkEdit,
  savedWorkOf,
  type WorkParts,
} from '../../../flow-kit/work-edits';
import { useWorkSaved } from '../../../hooks/work-queries';
import {
  DEFAULT_SCROLL_SETTINGS,
  emptyScrollDraft,
  SCROLL_TYPE,
  scrollDraftFor,
  scrollStore,
  scrollTextProblem,
  scrollTitleOf,
  type KeptScrollDraft,
  type ScrollSettings,
} from '../scroll-flow';

/** A saved scrolling video as the page edits it, and the work as read (the base of a save). */
function scrollDraftOf(work: WorkDetail): KeptScrollDraft {
  const { aspect, voiceId, speed, musicId, backgroundMaterialId } = work.settings;
  return {
    workId: work.workId,
    title: work.title,
    text: work.text,
    settings: {
      ...DEFAULT_SCROLL_SETTINGS,
      aspect,
      ...(voiceId !== undefined ? { voiceId } : {}),
      ...(speed !== undefined ? { speed } : {}),
      ...(musicId !== undefined ? { musicId } : {}),
      ...(backgroundMaterialId !== undefined ? { backgroundMaterialId } : {}),
    },
    saved: savedWorkOf(work),
  };
}

/**
 * A saved scrolling video opened from its work (`work_info`), kept in `KOL_SCROLL_DRAFT` as soon
 * as it is read. Read once per arrival and never again by itself (`staleTime: Infinity`,
 * `gcTime: 0`), and never kept over a draft of the work the session already holds (were it read
 * again, by an invalidation of everything): the work would replace what the person is editing.
 */
function scrollDraftQuery(workId: number) {
  return queryOptions({
    queryKey: ['scroll-draft', workId] as const,
    queryFn: async ({ signal }) => {
      const read = scrollDraftOf(await getWorkInfo({ workId }, { signal }));
      if (!scrollDraftFor(workId, scrollStore.draft())) scrollStore.setDraft(read);
      return read;
    },
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * The scrolling video page's state. Every edit is written to `KOL_SCROLL_DRAFT` at once, so a
 * reload or a refused save loses nothing; with a work in the address and no draft of it in the
 * session (a fresh tab), the work is read back (`work_info`).
 */
export function useScrollVideo(workId: number | null, onSavedAs: (workId: number) => void) {
  const { message } = App.useApp();
  const handover = useVideoHandover(SCROLL_TYPE, workId);
  const [draft, setDraft] = useState<KeptScrollDraft | null>(() => {
    const stored = scrollStore.draft();
    if (!handover) return scrollDraftFor(workId, stored);
    // 发送到视频's text and title start a new video, with the settings last chosen.
    const next = {
      ...emptyScrollDraft(stored ? { ...DEFAULT_SCROLL_SETTINGS, ...stored.settings } : undefined),
      title: handover.title,
      text: handover.text,
    };
    scrollStore.setDraft(next);
    return next;
  });
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft?.workId ?? null, draft?.saved);
  const workSaved = useWorkSaved();
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Which work's draft came from the read below. Its query then stays on: it is never read
  // again by itself, and turning it off would only render the page once more.
  const [openedFor, setOpenedFor] = useState<number | null>(null);
  const read = useQuery({
    ...scrollDraftQuery(workId ?? 0),
    enabled: workId !== null && (draft === null || openedFor === workId),
  });
  // The work as read becomes the page's draft (already in the session).
  if (draft === null && read.data && read.data.workId === workId) {
    setOpenedFor(workId);
    setDraft(read.data);
  }
  const loadError = read.error ? errorMessage(read.error) : null;

  const update = (patch: Partial<KeptScrollDraft>) =>
    setDraft((current) => {
      if (!current) return current;
      const next = { ...current, ...patch };
      scrollStore.setDraft(next);
      return next;
    });

  const changeText = (text: string) => {
    update({ text });
    if (problem) setProblem(scrollTextProblem(text));
  };

  const changeSettings = (patch: Partial<ScrollSettings>) =>
    setDraft((current) => {
      if (!current) return current;
      const next = { ...current, settings: { ...current.settings, ...patch } };
      scrollStore.setDraft(next);
      return next;
    });

  /** Checks the text before the count is asked for; false (the user told why) when refused. */
  const check = async (): Promise<boolean> => {
    if (!draft) return false;
    const found = scrollTextProblem(draft.text);
    setProblem(found);
    if (found) void message.error(found);
    return found === null;
  };

  /**
   * Saves text and settings onto the work and answers its id: made on the first save (on
   * 确认生成, so nothing is made before the creator commits), saved over after on the revision
   * the draft was read or last saved at. Answers null when the person chose the newest work
   * instead (it then replaces the draft); a failure rejects.
   */
  const save = async (): Promise<number | null> => {
    if (!draft) throw new Error('作品还在读取，请稍候再试');
    const over = draft.workId !== null ? await savedWork.base() : null;
    if (draft.workId !== null && !over) throw new Error(savedWork.problem());
    setSaving(true);
    let base = over;
    try {
      const title = draft.title.trim() || scrollTitleOf(draft.text);
      let edit: WorkParts = { title, text: draft.text, settings: draft.settings };
      if (!base) {
        base = await createWork({ type: SCROLL_TYPE, title, text: draft.text });
        // Remembered before the settings go: a failure there must not make a second work.
        update({ workId: base.workId, saved: base });
        if (base.workId !== workId) onSavedAs(base.workId);
        edit = { settings: draft.settings };
      }
      const saved = await saveWorkEdit(revisionedSave, base, edit);
      if (!saved) {
        // The person chose the work as saved elsewhere: it replaces the draft.
        const newest = await savedWork.takeNewest();
        if (newest) {
          const read = scrollDraftOf(newest);
          scrollStore.setDraft(read);
          setDraft(read);
        }
        return null;
      }
      // Kept with the draft: the next save, after a reload too, is based on this revision.
      update({ workId: saved.workId, saved });
      return saved.workId;
    } finally {
      setSaving(false);
      // Made or saved over, even when a later call failed: what shows it reads it again.
      if (base) workSaved(base.workId);
    }
  };

  return {
    draft,
    handedOver: handover !== null,
    loadError,
    problem,
    saving,
    update,
    changeText,
    changeSettings,
    check,
    save,
  };
}
