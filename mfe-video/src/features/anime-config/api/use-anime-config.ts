import { useCallback, useEffect, useRef, useState } from 'react';
import { getWorkInfo, mergeEdits, type VideoSettings, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { ANIME_TYPE } from '../../../lib/anime-flow';
import { parseScriptText, type ScriptLine } from '../../../lib/anime-script';
import { saveWorkEdit, savedWorkOf, serialQueue, type SavedWork } from '../../../lib/work-edits';

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
  const [settings, setSettings] = useState<VideoSettings | null>(null);
  const [lines, setLines] = useState<ScriptLine[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const revisionedSave = useRevisionedSave();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef<VideoSettings | null>(null);
  /** The work as last loaded or saved: the base of the next save. */
  const saved = useRef<SavedWork | null>(null);
  const [queue] = useState(serialQueue);
  const dirty = useRef(false);
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
        const loaded = { ...DEFAULTS, ...work.settings };
        latest.current = loaded;
        saved.current = { ...savedWorkOf(work), settings: loaded };
        dirty.current = false;
        setSettings(loaded);
        setLines(parseScriptText(work.text));
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

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** Saves the settings now; answers false when the save failed (the message is shown). */
  const flush = useCallback(
    (): Promise<boolean> =>
      queue(async () => {
        if (timer.current) clearTimeout(timer.current);
        timer.current = null;
        const current = latest.current;
        const base = saved.current;
        if (!current || !base) return false;
        if (!dirty.current) return true;
        dirty.current = false;
        setSaving(true);
        try {
          const next = await saveWorkEdit(revisionedSave, base, { settings: current });
          if (!next) {
            // The person chose the newest settings: read the work again.
            latest.current = null;
            saved.current = null;
            setSaveError(null);
            setAttempt((n) => n + 1);
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
        } finally {
          setSaving(false);
        }
      }),
    [queue, revisionedSave],
  );

  const change = useCallback(
    (patch: Partial<VideoSettings>) => {
      const current = latest.current;
      if (!current) return;
      const next = { ...current, ...patch };
      latest.current = next;
      dirty.current = true;
      setSettings(next);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), SETTINGS_AUTOSAVE_MS);
    },
    [flush],
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
    reload: () => setAttempt((n) => n + 1),
    saving,
    saveError,
    change,
    setRoleVoice,
    flush,
  };
}
