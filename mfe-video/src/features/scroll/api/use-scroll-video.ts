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

  /** Checks the text before the count is asked for; false (the user told why) when refused. */
  const check = async (): Promise<boolean> => {
    if (!draft) return false;
    const found = scrollTextProblem(draft.text);
    setProblem(found);
    if (found) void message.error(found);
    return found === null;
  };

  /**
   * Saves text and settings onto the work, made on the first save (on 确认生成, so nothing is
   * made before the creator commits), and answers its id; a failure rejects.
   */
  const save = async (): Promise<number> => {
    if (!draft) throw new Error('作品还在读取，请稍候再试');
    setSaving(true);
    try {
      const saved = await saveText({
        ...(draft.workId !== null ? { workId: draft.workId } : {}),
        type: SCROLL_TYPE,
        title: draft.title.trim() || scrollTitleOf(draft.text),
        text: draft.text,
      });
      // Remembered before the settings go: a failure there must not make a second work.
      update({ workId: saved.workId });
      if (saved.workId !== workId) onSavedAs(saved.workId);
      await saveVideoInfo({ workId: saved.workId, settings: draft.settings });
      return saved.workId;
    } finally {
      setSaving(false);
    }
  };

  return { draft, loadError, problem, saving, update, changeText, changeSettings, check, save };
}
