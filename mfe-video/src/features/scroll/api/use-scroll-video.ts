import { useEffect, useState } from 'react';
import { App } from 'antd';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useSavedWork } from '../../../hooks/use-saved-work';
import {
  DEFAULT_SCROLL_SETTINGS,
  SCROLL_TYPE,
  scrollDraftFor,
  scrollStore,
  scrollTextProblem,
  scrollTitleOf,
  type KeptScrollDraft,
  type ScrollSettings,
} from '../../../lib/scroll-flow';
import { createWork, saveWorkEdit, savedWorkOf } from '../../../lib/work-edits';

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
 * The scrolling video page's state. Every edit is written to `KOL_SCROLL_DRAFT` at once, so a
 * reload or a refused save loses nothing; with a work in the address and no draft of it in the
 * session (a fresh tab), the work is read back (`work_info`).
 */
export function useScrollVideo(workId: number | null, onSavedAs: (workId: number) => void) {
  const { message } = App.useApp();
  const [draft, setDraft] = useState<KeptScrollDraft | null>(() =>
    scrollDraftFor(workId, scrollStore.draft()),
  );
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft?.workId ?? null, draft?.saved);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (draft !== null || workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return;
        const read = scrollDraftOf(work);
        scrollStore.setDraft(read);
        setDraft(read);
      },
      (reason: unknown) => {
        if (live) setLoadError(errorMessage(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [draft, workId]);

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

  /** Saves text and settings onto the work (made on the first save); false when refused. */
  const save = async (): Promise<boolean> => {
    if (!draft) return false;
    const found = scrollTextProblem(draft.text);
    setProblem(found);
    if (found) {
      void message.error(found);
      return false;
    }
    const over = draft.workId !== null ? await savedWork.base() : null;
    if (draft.workId !== null && !over) {
      void message.error(savedWork.problem());
      return false;
    }
    setSaving(true);
    try {
      const parts = {
        title: draft.title.trim() || scrollTitleOf(draft.text),
        text: draft.text,
        settings: draft.settings,
      };
      const saved = over
        ? await saveWorkEdit(revisionedSave, over, parts)
        : await createWork({ type: SCROLL_TYPE, ...parts });
      if (!saved) {
        // The person chose the work as saved elsewhere: it replaces the draft.
        const newest = await savedWork.takeNewest();
        if (newest) {
          const read = scrollDraftOf(newest);
          scrollStore.setDraft(read);
          setDraft(read);
        }
        return false;
      }
      // Kept with the draft: the next save, after a reload too, is based on this revision.
      update({ workId: saved.workId, saved });
      if (saved.workId !== workId) onSavedAs(saved.workId);
      return true;
    } catch (error) {
      void message.error(errorMessage(error));
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { draft, loadError, problem, saving, update, changeText, changeSettings, save };
}
