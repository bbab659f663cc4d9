import { useCallback, useEffect, useRef, useState } from 'react';
import {
  getDedupPresets,
  saveDedupPresets,
  type DedupPresets,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';

/**
 * The presets the user saved on the server (`dedup_presets`), and saving new ones. A save is
 * based on the revision the presets were read or last saved at: presets saved meanwhile in
 * another tab are merged in key by key, and the person asked when the same one was changed both
 * ways.
 */
export function useSavedPresets() {
  const [saved, setSaved] = useState<DedupPresets | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const revision = useRef(0);
  const revisionedSave = useRevisionedSave();

  useEffect(() => {
    let current = true;
    getDedupPresets(undefined).then(
      (record) => {
        if (!current) return;
        revision.current = record.revision;
        setSaved(record.presets);
      },
      (reason: unknown) => current && setError(`读取去重设置失败：${errorMessage(reason)}`),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  /**
   * Saves the presets; answers true once saved, false when the person chose the presets saved
   * elsewhere (read again then). A refusal rejects.
   */
  const save = useCallback(
    async (presets: DedupPresets): Promise<boolean> => {
      if (!saved) return false;
      const done = await revisionedSave({
        base: saved,
        edited: presets,
        revision: revision.current,
        save: async (value, at) => ({
          value,
          ...(await saveDedupPresets({ presets: value, revision: at })),
        }),
        load: async () => {
          const record = await getDedupPresets(undefined);
          return { value: record.presets, revision: record.revision };
        },
      });
      if (!done) {
        setAttempt((n) => n + 1);
        return false;
      }
      revision.current = done.revision;
      setSaved(done.value);
      return true;
    },
    [saved, revisionedSave],
  );

  const reload = useCallback(() => {
    setError(null);
    setAttempt((n) => n + 1);
  }, []);

  return { saved, error, save, reload };
}
