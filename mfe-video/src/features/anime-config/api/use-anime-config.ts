import { useCallback, useEffect, useRef, useState } from 'react';
import { getWorkInfo, saveVideoInfo, type VideoSettings, errorMessage } from '@kol/shared-sdk';
import { ANIME_TYPE } from '../../../lib/anime-flow';
import { parseScriptText, type ScriptLine } from '../../../lib/anime-script';

/** How long after the last change the settings are saved onto the work. */
export const SETTINGS_AUTOSAVE_MS = 500;

const DEFAULTS: VideoSettings = { aspect: '9:16', speed: 1, captionStyle: 'classic' };

/**
 * The anime short's settings: read from the work, and saved back onto it (`save_video_info`) a
 * moment after each change, so a reload keeps every choice. The script's lines come along: each
 * character's voice is auditioned with their own first line.
 */
export function useAnimeConfig(workId: number) {
  const [settings, setSettings] = useState<VideoSettings | null>(null);
  const [lines, setLines] = useState<ScriptLine[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef<VideoSettings | null>(null);
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
  const flush = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const current = latest.current;
    if (!current) return false;
    if (!dirty.current) return true;
    dirty.current = false;
    setSaving(true);
    try {
      await saveVideoInfo({ workId, settings: current });
      setSaveError(null);
      return true;
    } catch (reason) {
      dirty.current = true;
      setSaveError(`设置保存失败：${errorMessage(reason)}`);
      return false;
    } finally {
      setSaving(false);
    }
  }, [workId]);

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
