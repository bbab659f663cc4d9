import { useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { getWorkInfo, sessionStore, type CaptionStyle, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave, useSingleFlight } from '@kol/shared-sdk/ui';
import {
  settingsToSave,
  type ComicFlowStore,
  type ComicSettings,
  type ComicType,
} from '../../../lib/comic-flow';
import { savedWorkOf, type SavedWork } from '../../../lib/work-edits';
import { titleOf, videoTextProblem } from '../validation';
import { saveComicWork } from './save-comic-work';

interface ComicConfigInput {
  type: ComicType;
  workId: number | null;
  store: ComicFlowStore;
  /** Where to go once the work is saved. */
  onSaved: (workId: number) => void;
}

/**
 * The configuration page's state. Every change is written to the flow's session values at once
 * (text, settings, style), so a reload or a failed save loses nothing the creator typed. With
 * a work in the address it is read on arrival: its revision is what saving over it is based on.
 */
export function useComicConfig({ type, workId, store, onSaved }: ComicConfigInput) {
  const { message } = App.useApp();
  const [text, setText] = useState(() => store.text());
  const [handedOver] = useState(() => store.text().trim() !== '' && workId === null);
  const [title, setTitle] = useState('');
  const [settings, setSettings] = useState<ComicSettings>(() => store.settings());
  const [styleId, setStyleId] = useState<number>(() => store.styleId() ?? 0);
  const [problem, setProblem] = useState<string | null>(null);
  const revisionedSave = useRevisionedSave();
  /** The work in the address as read on arrival (or last saved): the base of saving over it. */
  const [saved, setSaved] = useState<SavedWork | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // The person chose the work as saved elsewhere over their edit: the next read replaces it.
  const takeWork = useRef(false);
  // The read on arrival, under way or done: a save asked for before it answers waits for it.
  const reading = useRef<Promise<SavedWork | null>>(Promise.resolve(null));

  // Back from a later step in a fresh tab: the work still has its title and text.
  useEffect(() => {
    if (workId === null) return;
    let live = true;
    reading.current = getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return null;
        const read = savedWorkOf(work);
        setSaved(read);
        setLoadError(null);
        if (takeWork.current) {
          takeWork.current = false;
          const next = { ...store.settings(), ...work.settings };
          store.setSettings(next);
          setSettings(next);
          setTitle(work.title);
          store.setText(work.text);
          setText(work.text);
          return read;
        }
        setTitle((current) => current || work.title);
        setText((current) => {
          if (current.trim()) return current;
          store.setText(work.text);
          return work.text;
        });
        return read;
      },
      (reason: unknown) => {
        // The title is optional and the text is in the session, but saving over the work needs
        // the revision it is based on.
        if (live) setLoadError(errorMessage(reason));
        return null;
      },
    );
    return () => {
      live = false;
    };
  }, [workId, store, attempt]);

  const changeText = (value: string) => {
    setText(value);
    store.setText(value);
    if (problem) setProblem(videoTextProblem(value));
  };

  const changeSettings = (patch: Partial<ComicSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...patch };
      store.setSettings(next);
      return next;
    });
  };

  const changeStyle = (id: number) => {
    setStyleId(id);
    store.setStyleId(id);
  };

  const rememberChapter = (chapterId: number) => sessionStore.set('chapterId', chapterId);

  // Once at a time: a double click on 下一步 makes one work.
  const { run: save, busy: saving } = useSingleFlight(async () => {
    const found = videoTextProblem(text);
    setProblem(found);
    if (found) {
      void message.error(found);
      return;
    }
    try {
      const base =
        workId === null ? null : saved?.workId === workId ? saved : await reading.current;
      if (workId !== null && base?.workId !== workId) {
        void message.error(`作品加载失败：${loadError ?? '请稍候再试'}，已重新加载，请再试一次`);
        setAttempt((n) => n + 1);
        return;
      }
      const now = await saveComicWork(
        {
          saved: base,
          type,
          title: title.trim() || titleOf(text),
          text,
          settings: settingsToSave(store),
        },
        revisionedSave,
      );
      if (!now) {
        // The person chose the work as saved elsewhere: it replaces their edit.
        takeWork.current = true;
        setAttempt((n) => n + 1);
        return;
      }
      setSaved(now);
      onSaved(now.workId);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  });

  return {
    text,
    changeText,
    title,
    setTitle,
    handedOver,
    settings,
    changeSettings,
    changeCaptionStyle: (captionStyle: CaptionStyle) => changeSettings({ captionStyle }),
    styleId,
    changeStyle,
    rememberChapter,
    problem,
    saving,
    save,
  };
}
