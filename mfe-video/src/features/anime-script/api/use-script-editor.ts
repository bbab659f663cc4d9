import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { ANIME_NARRATOR, getWorkInfo, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { ANIME_TYPE } from '../../../lib/anime-flow';
import {
  newKey,
  parseScriptText,
  scriptProblem,
  scriptText,
  type ScriptLine,
} from '../../../lib/anime-script';
import { saveTextEdit, serialQueue } from '../../../lib/work-edits';

/** How long after the last edit the script is saved onto the work. */
export const AUTOSAVE_MS = 600;

export type SaveState = 'saved' | 'pending' | 'saving' | 'failed';

/**
 * The script of the work being edited: read from the work (`work_info`, its text as
 * 「角色：台词」 lines), and saved back onto it (`update_text`) a moment after each edit, so a
 * reload or another tab finds every change. A script that cannot be saved as it stands (an
 * empty line, a speaker with punctuation) stays on the page with its problem named, and is saved
 * as soon as it is fixed.
 *
 * Each save is based on the revision of the text it started from (loaded, or the previous save's
 * answer), one save after another. When the work changed meanwhile the person is asked, their
 * script kept on the page until they choose (载入最新内容 reads the work again).
 */
export function useScriptEditor(workId: number) {
  const { message } = App.useApp();
  const revisionedSave = useRevisionedSave();
  const [lines, setLinesState] = useState<ScriptLine[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [saveError, setSaveError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef<ScriptLine[] | null>(null);
  /** The text as last loaded or saved, and its revision: the base of the next save. */
  const saved = useRef<{ text: string; revision: number } | null>(null);
  const [queue] = useState(serialQueue);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let live = true;
    getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return;
        if (work.type !== ANIME_TYPE) {
          setLoadError('这个作品不是 AI漫剧，请从视频合成重新开始');
          return;
        }
        const parsed = parseScriptText(work.text);
        latest.current = parsed;
        saved.current = { text: work.text, revision: work.revision };
        setLinesState(parsed);
        setLoadError(null);
      },
      (reason: unknown) => {
        if (live) setLoadError(errorMessage(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [workId, attempt]);

  /** Saves the script now; answers false when it cannot be saved (the problem is shown). */
  const flush = useCallback(
    (): Promise<boolean> =>
      queue(async () => {
        if (timer.current) clearTimeout(timer.current);
        timer.current = null;
        const current = latest.current;
        const base = saved.current;
        if (!current || !base) return false;
        const problem = scriptProblem(current);
        if (problem) {
          setSaveState('failed');
          setSaveError(problem);
          return false;
        }
        const text = scriptText(current);
        if (text === base.text) {
          if (latest.current === current) setSaveState('saved');
          setSaveError(null);
          return true;
        }
        setSaveState('saving');
        try {
          const work = await saveTextEdit(revisionedSave, workId, {
            base: { text: base.text },
            edited: { text },
            revision: base.revision,
            pick: (newest) => ({ text: newest.text }),
          });
          if (!work) {
            // The person chose the newest script: nothing of theirs is saved after this.
            latest.current = null;
            saved.current = null;
            setSaveState('saved');
            setSaveError(null);
            setAttempt((n) => n + 1);
            return false;
          }
          saved.current = { text: work.text, revision: work.revision };
          // Edits made while the call ran are saved by their own timer.
          if (latest.current === current) setSaveState('saved');
          setSaveError(null);
          return true;
        } catch (reason) {
          setSaveState('failed');
          setSaveError(`剧本保存失败：${errorMessage(reason)}`);
          return false;
        }
      }),
    [queue, revisionedSave, workId],
  );

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const setLines = useCallback(
    (change: (current: ScriptLine[]) => ScriptLine[]) => {
      const current = latest.current;
      if (!current) return;
      const next = change(current);
      latest.current = next;
      setLinesState(next);
      setSaveState('pending');
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTOSAVE_MS);
    },
    [flush],
  );

  const edit = (key: string, patch: Partial<Pick<ScriptLine, 'speaker' | 'text'>>) =>
    setLines((all) => all.map((line) => (line.key === key ? { ...line, ...patch } : line)));

  /** A new line after this one (or first), said by the same speaker. */
  const addAfter = (index: number) => {
    setLines((all) => {
      const speaker = all[index]?.speaker ?? ANIME_NARRATOR;
      const next = [...all];
      next.splice(index + 1, 0, { key: newKey(), speaker, text: '' });
      return next;
    });
  };

  const remove = async (key: string) => {
    setLines((all) => all.filter((line) => line.key !== key));
    void message.success('已删除这一行');
  };

  const move = (index: number, delta: -1 | 1) =>
    setLines((all) => {
      const to = index + delta;
      if (to < 0 || to >= all.length) return all;
      const next = [...all];
      const [line] = next.splice(index, 1);
      if (line) next.splice(to, 0, line);
      return next;
    });

  /** Replaces a word in every line (a flagged word by its safer wording). */
  const replaceEverywhere = (word: string, replacement: string, replace: (t: string) => string) => {
    setLines((all) => all.map((line) => ({ ...line, text: replace(line.text) })));
    void message.success(`已把「${word}」替换为「${replacement}」`);
  };

  return {
    lines,
    loadError,
    reload: () => setAttempt((n) => n + 1),
    saveState,
    saveError,
    flush,
    edit,
    addAfter,
    remove,
    move,
    replaceEverywhere,
  };
}
