import { useEffect, useState } from 'react';
import { App } from 'antd';
import {
  getWorkInfo,
  saveText,
  saveVideoInfo,
  type ScrollDraft,
  errorMessage,
} from '@kol/shared-sdk';
import {
  DEFAULT_SCROLL_SETTINGS,
  SCROLL_TYPE,
  scrollDraftFor,
  scrollStore,
  scrollTextProblem,
  scrollTitleOf,
  type ScrollSettings,
} from '../../../lib/scroll-flow';

/**
 * The scrolling video page's state. Every edit is written to `KOL_SCROLL_DRAFT` at once, so a
 * reload or a refused save loses nothing; with a work in the address and no draft of it in the
 * session (a fresh tab), the work is read back (`work_info`).
 */
export function useScrollVideo(workId: number | null, onSavedAs: (workId: number) => void) {
  const { message } = App.useApp();
  const [draft, setDraft] = useState<ScrollDraft | null>(() =>
    scrollDraftFor(workId, scrollStore.draft()),
  );
  const [loadError, setLoadError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (draft !== null || workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return;
        const { aspect, voiceId, speed, musicId, backgroundMaterialId } = work.settings;
        const read: ScrollDraft = {
          workId,
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
        };
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

  const update = (patch: Partial<ScrollDraft>) =>
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
    setSaving(true);
    try {
      const saved = await saveText({
        ...(draft.workId !== null ? { workId: draft.workId } : {}),
        type: SCROLL_TYPE,
        title: draft.title.trim() || scrollTitleOf(draft.text),
        text: draft.text,
      });
      await saveVideoInfo({ workId: saved.workId, settings: draft.settings });
      update({ workId: saved.workId });
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
