import { useCallback, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { ANIME_NARRATOR, errorMessage, type VideoSettings } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { saveTextEdit, serialQueue } from '../../../flow-kit/work-edits';
import {
  newKey,
  parseScriptText,
  scriptProblem,
  scriptText,
  type ScriptLine,
} from '../anime-script';
import { useAutosave } from '../../../hooks/use-autosave';
import { workKey } from '../../../hooks/work-queries';
import { useSeededAnimeWork } from './use-seeded-work';

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
  const client = useQueryClient();
  const revisionedSave = useRevisionedSave();
  const [lines, setLinesState] = useState<ScriptLine[] | null>(null);
  /** The work's voices and speed as read: what the page's length estimate speaks the lines with. */
  const [settings, setSettings] = useState<VideoSettings | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [saveError, setSaveError] = useState<string | null>(null);
  const latest = useRef<ScriptLine[] | null>(null);
  /** The text as last loaded or saved, and its revision: the base of the next save. */
  const saved = useRef<{ text: string; revision: number } | null>(null);
  const [queue] = useState(serialQueue);

  // The work as read on arrival and on 重新加载 / 载入最新内容 is what the page edits from.
  const { reload, loadError } = useSeededAnimeWork(workId, (work) => {
    const parsed = parseScriptText(work.text);
    latest.current = parsed;
    saved.current = { text: work.text, revision: work.revision };
    setLinesState(parsed);
    setSettings(work.settings);
  });

  // The saved work goes into the query cache, where the next step finds it.
  const { mutateAsync: saveScript } = useMutation({
    mutationFn: (edit: { text: string; base: { text: string; revision: number } }) =>
      saveTextEdit(revisionedSave, workId, {
        base: { text: edit.base.text },
        edited: { text: edit.text },
        revision: edit.base.revision,
        pick: (newest) => ({ text: newest.text }),
      }),
    onSuccess: (work) => {
      if (work) client.setQueryData(workKey(workId), work);
    },
  });

  /** Saves the script; answers false when it cannot be saved (the problem is shown). */
  const saveLines = useCallback(async (): Promise<boolean> => {
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
      const work = await saveScript({ text, base });
      if (!work) {
        // The person chose the newest script: nothing of theirs is saved after this.
        latest.current = null;
        saved.current = null;
        setSaveState('saved');
        setSaveError(null);
        reload();
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
  }, [saveScript, reload]);
  // `flush` saves now (下一步), `schedule` a moment after the last keystroke.
  const { flush, schedule } = useAutosave(saveLines, { delayMs: AUTOSAVE_MS, queue });

  const setLines = useCallback(
    (change: (current: ScriptLine[]) => ScriptLine[]) => {
      const current = latest.current;
      if (!current) return;
      const next = change(current);
      latest.current = next;
      setLinesState(next);
      setSaveState('pending');
      schedule();
    },
    [schedule],
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
    settings,
    loadError,
    reload,
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
