import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import {
  getWorkInfo,
  sessionStore,
  type CaptionStyle,
  type WorkDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave, useSingleFlight } from '@kol/shared-sdk/ui';
import { useVideoHandover } from '../../../flow-kit/text-source/use-video-handover';
import { titleOf, videoTextProblem } from '../../../flow-kit/video-text';
import { savedWorkOf, type SavedWork } from '../../../flow-kit/work-edits';
import {
  settingsToSave,
  type ComicFlowStore,
  type ComicSettings,
  type ComicType,
} from '../comic-flow';
import { saveComicWork } from './save-comic-work';
import { workKey } from '../../../hooks/work-queries';

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
  const client = useQueryClient();
  // 发送到视频's text and title (a new clip only) replace the remembered ones: the person chose
  // to make this text into a clip.
  const handover = useVideoHandover(type, workId);
  const [text, setText] = useState(() => {
    if (handover) store.setText(handover.text);
    return store.text();
  });
  const [handedOver] = useState(() => store.text().trim() !== '' && workId === null);
  const [title, setTitle] = useState(handover?.title ?? '');
  const [settings, setSettings] = useState<ComicSettings>(() => store.settings());
  const [styleId, setStyleId] = useState<number>(() => store.styleId() ?? 0);
  const [problem, setProblem] = useState<string | null>(null);
  const revisionedSave = useRevisionedSave();
  /** The work in the address as read on arrival (or last saved): the base of saving over it. */
  const [saved, setSaved] = useState<SavedWork | null>(null);
  // The person chose the work as saved elsewhere over their edit: the next read replaces it.
  const takeWork = useRef(false);
  // The read on arrival, under way or done: a save asked for before it answers waits for it.
  const reading = useRef<Promise<SavedWork | null>>(Promise.resolve(null));

  /** The work as read: the base of saving over it, and the title and text when the page has none. */
  function arrived(work: WorkDetail) {
    setSaved(savedWorkOf(work));
    if (takeWork.current) {
      takeWork.current = false;
      const next = { ...store.settings(), ...work.settings };
      store.setSettings(next);
      setSettings(next);
      setTitle(work.title);
      store.setText(work.text);
      setText(work.text);
      return;
    }
    setTitle((current) => current || work.title);
    setText((current) => {
      if (current.trim()) return current;
      store.setText(work.text);
      return work.text;
    });
  }

  /**
   * Whether the next read is the base of saving over the work: on arrival and when the page asks
   * (a failed read tried again, the work chosen over the person's edit). Never just before
   * saving, nor another page's read of the work (the cache's key is shared): the base's revision
   * is what keeps a save from writing over another change unseen.
   */
  const seeding = useRef(true);

  // Back from a later step in a fresh tab: the work still has its title and text.
  const query = useQuery({
    queryKey: workKey(workId),
    queryFn: ({ signal }) => {
      if (workId === null) throw new Error('no work');
      const seed = seeding.current;
      const read = getWorkInfo({ workId }, { signal });
      if (!seed) return read;
      const seeded = read.then((work) => {
        seeding.current = false;
        arrived(work);
        return work;
      });
      reading.current = seeded.then(savedWorkOf, () => null);
      return seeded;
    },
    enabled: workId !== null,
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnReconnect: false,
  });
  const { refetch } = query;
  /** Reads the work again, as the base of saving over it. */
  const reload = () => {
    seeding.current = true;
    void refetch();
  };
  // The title is optional and the text is in the session, but saving over the work needs the
  // revision it is based on.
  const loadError = query.error ? errorMessage(query.error) : null;

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
        reload();
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
        reload();
        return;
      }
      setSaved(now);
      // A copy of the work in the cache is older than the one saved: the next page reads it.
      void client.invalidateQueries({ queryKey: workKey(now.workId), refetchType: 'none' });
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
