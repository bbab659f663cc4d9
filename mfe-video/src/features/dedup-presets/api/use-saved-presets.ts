import { useCallback, useEffect, useState } from 'react';
import {
  getDedupPresets,
  saveDedupPresets,
  type DedupPresets,
  errorMessage,
} from '@kol/shared-sdk';

/** The presets the user saved on the server (`dedup_presets`), and saving new ones. */
export function useSavedPresets() {
  const [saved, setSaved] = useState<DedupPresets | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    getDedupPresets(undefined).then(
      (presets) => current && setSaved(presets),
      (reason: unknown) => current && setError(`读取去重设置失败：${errorMessage(reason)}`),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const save = useCallback(async (presets: DedupPresets) => {
    await saveDedupPresets({ presets });
    setSaved(presets);
  }, []);

  const reload = useCallback(() => {
    setError(null);
    setAttempt((n) => n + 1);
  }, []);

  return { saved, error, save, reload };
}
