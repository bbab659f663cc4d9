import { useCallback, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, mergeEdits, type VideoSettings } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import {
  saveWorkEdit,
  savedWorkOf,
  serialQueue,
  type SavedWork,
} from '../../../flow-kit/work-edits';
import { parseScriptText, type ScriptLine } from '../anime-script';
import { useAutosave } from '../../../hooks/use-autosave';
import { workKey } from '../../../hooks/work-queries';
import { useSeededAnimeWork } from './use-seeded-work';

/** How long after the last change the settings are saved onto the work. */
export const SETTINGS_AUTOSAVE_MS = 500;

const DEFAULTS: VideoSettings = { aspect: '9:16', speed: 1, captionStyle: 'classic' };

/**
 * The anime short's settings: read from the work, and saved back onto it (`save_video_info`) a
 * moment after each change, so a reload keeps every choice. The script's lines come along: each
 * character's voice is auditioned with their own first line.
 *
 * Each save is based on the settings and revision last loaded or saved, one after another; a
 * change made meanwhile elsewhere is merged in key by key, and the person asked when the same
 * setting was changed both ways (载入最新内容 reads the work again).
 */
export function useAnimeConfig(workId: number) {
  const client = useQueryClient();
  const [settings, setSettings] = useState<VideoSettings | null>(null);
  const [lines, setLines] = useState<ScriptLine[]>([]);
  const revisionedSave = useRevisionedSave();
  const [saveError, setSaveError] = useState<string | null>(null);
  const latest = useRef<VideoSettings | null>(null);
  /** The work as last loaded or saved: the base of the next save. */
  const saved = useRef<SavedWork | null>(null);
  const [queue] = useState(serialQueue);
  const dirty = useRef(false);

  // The work as read on arrival and on 重新加载 / 载入最新内容 is what the page edits from.
  const { reload, loadError } = useSeededAnimeWork(workId, (work) => {
    const loaded = { ...DEFAULTS, ...work.settings };
    latest.current = loaded;
    saved.current = { ...savedWorkOf(work), settings: loaded };
    dirty.current = false;
    setSettings(loaded);
    setLines(parseScriptText(work.text));
  });

  const { mutateAsync: saveSettings, isPending: saving } = useMutation({
    mutationFn: ({ base, edited }: { base: SavedWork; edited: VideoSettings }) =>
      saveWorkEdit(revisionedSave, base, { settings: edited }),
    // The cached work is older than the one saved: the next page that reads it reads it again.
    onSuccess: (next) => {
      if (next) {
        void client.invalidateQueries({ queryKey: workKey(workId), refetchType: 'none' });
      }
    },
  });

  /** Saves the settings; answers false when the save failed (the message is shown). */
  const saveChanges = useCallback(async (): Promise<boolean> => {
    const current = latest.current;
    const base = saved.current;
    if (!current || !base) return false;
    if (!dirty.current) return true;
    dirty.current = false;
    try {
      const next = await saveSettings({ base, edited: current });
      if (!next) {
        // The person chose the newest settings: read the work again.
        latest.current = null;
        saved.current = null;
        setSaveError(null);
        reload();
        return false;
      }
      saved.current = next;
      // What the save merged in from elsewhere shows too, under any change made meanwhile.
      const shown = mergeEdits(current, latest.current ?? current, {
        ...current,
        ...next.settings,
      }).value;
      if (shown !== latest.current) {
        latest.current = shown;
        setSettings(shown);
      }
      setSaveError(null);
      return true;
    } catch (reason) {
      dirty.current = true;
      setSaveError(`设置保存失败：${errorMessage(reason)}`);
      return false;
    }
  }, [saveSettings, reload]);
  // `flush` saves now (下一步), `schedule` a moment after the last change.
  const { flush, schedule } = useAutosave(saveChanges, { delayMs: SETTINGS_AUTOSAVE_MS, queue });

  const change = useCallback(
    (patch: Partial<VideoSettings>) => {
      const current = latest.current;
      if (!current) return;
      const next = { ...current, ...patch };
      latest.current = next;
      dirty.current = true;
      setSettings(next);
      schedule();
    },
    [schedule],
  );

  const setRoleVoice = useCallback(
    (speaker: string, voiceId: string) => {
      const current = latest.current;
      if (!current || current.roleVoices?.[speaker] === voiceId) return;
      change({ roleVoices: { ...current.roleVoices, [speaker]: voiceId } });
    },
    [change],
  );

  return {
    settings,
    lines,
    loadError,
    reload,
    saving,
    saveError,
    change,
    setRoleVoice,
    flush,
  };
}
