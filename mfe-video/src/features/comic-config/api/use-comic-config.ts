import { useEffect, useState } from 'react';
import { App } from 'antd';
import { getWorkInfo, sessionStore, type CaptionStyle, errorMessage } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import {
  settingsToSave,
  type ComicFlowStore,
  type ComicSettings,
  type ComicType,
} from '../../../lib/comic-flow';
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
 * (text, settings, style), so a reload or a failed save loses nothing the creator typed.
 */
export function useComicConfig({ type, workId, store, onSaved }: ComicConfigInput) {
  const { message } = App.useApp();
  const [text, setText] = useState(() => store.text());
  const [handedOver] = useState(() => store.text().trim() !== '' && workId === null);
  const [title, setTitle] = useState('');
  const [settings, setSettings] = useState<ComicSettings>(() => store.settings());
  const [styleId, setStyleId] = useState<number>(() => store.styleId() ?? 0);
  const [problem, setProblem] = useState<string | null>(null);

  // Back from a later step in a fresh tab: the work still has its title and text.
  useEffect(() => {
    if (workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return;
        setTitle((current) => current || work.title);
        setText((current) => {
          if (current.trim()) return current;
          store.setText(work.text);
          return work.text;
        });
      },
      () => {
        // The page works without it: the title is optional and the text is in the session.
      },
    );
    return () => {
      live = false;
    };
  }, [workId, store]);

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
      const saved = await saveComicWork({
        workId,
        type,
        title: title.trim() || titleOf(text),
        text,
        settings: settingsToSave(store),
      });
      onSaved(saved);
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
