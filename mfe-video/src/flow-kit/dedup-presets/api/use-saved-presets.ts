import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getDedupPresets,
  saveDedupPresets,
  type DedupPresets,
  type DedupPresetsRecord,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';

/** The query key of the user's saved presets (with the revision they were read at). */
export const SAVED_PRESETS_KEY = ['dedup-presets'] as const;

/**
 * The presets the user saved on the server (`dedup_presets`), and saving new ones. A save is
 * based on the revision the presets were read or last saved at: presets saved meanwhile in
 * another tab are merged in key by key, and the person asked when the same one was changed both
 * ways. One cache entry for every page that shows them (the presets page, the reverse video,
 * the de-duplication of a work).
 */
export function useSavedPresets() {
  const client = useQueryClient();
  const revisionedSave = useRevisionedSave();
  const query = useQuery({
    queryKey: SAVED_PRESETS_KEY,
    queryFn: ({ signal }) => getDedupPresets(undefined, { signal }),
  });
  const record = query.data;

  /**
   * Saves the presets; answers true once saved, false when the person chose the presets saved
   * elsewhere (read again then). A refusal rejects.
   */
  const save = useCallback(
    async (presets: DedupPresets): Promise<boolean> => {
      if (!record) return false;
      const done = await revisionedSave({
        base: record.presets,
        edited: presets,
        revision: record.revision,
        save: async (value, at) => ({
          value,
          ...(await saveDedupPresets({ presets: value, revision: at })),
        }),
        load: async () => {
          const newest = await getDedupPresets(undefined);
          return { value: newest.presets, revision: newest.revision };
        },
      });
      if (!done) {
        await client.invalidateQueries({ queryKey: SAVED_PRESETS_KEY });
        return false;
      }
      client.setQueryData<DedupPresetsRecord>(SAVED_PRESETS_KEY, {
        presets: done.value,
        revision: done.revision,
      });
      return true;
    },
    [record, revisionedSave, client],
  );

  // As on opening: the failure goes, the presets are read again.
  const reload = useCallback(
    () => void client.resetQueries({ queryKey: SAVED_PRESETS_KEY }),
    [client],
  );

  return {
    saved: record?.presets ?? null,
    error: query.error ? `读取去重设置失败：${errorMessage(query.error)}` : null,
    save,
    reload,
  };
}
