import { useState } from 'react';
import {
  decompressionStore,
  type DecompressionDraftUpdate,
  type DecompressionSettings,
  type KeptDecompressionDraft,
} from '../decompression-flow';

/**
 * The page's input of one variant (domestic or overseas), read from its session value on
 * arrival and written back on every change, so a reload keeps what was typed and chosen.
 */
export function useDecompressionDraft(overseas: boolean) {
  const [store] = useState(() => decompressionStore(overseas));
  const [draft, setDraft] = useState<KeptDecompressionDraft>(() => store.draft());

  const update: DecompressionDraftUpdate = (change) =>
    setDraft((current) => {
      const next = change(current);
      store.setDraft(next);
      return next;
    });

  const changeSettings = (patch: Partial<DecompressionSettings>) =>
    update((current) => {
      const settings = { ...current.settings, ...patch };
      // No music chosen lets the server pick its default track.
      if (settings.musicId === undefined) delete settings.musicId;
      // Nor a background (its upload deleted): the server's default loop.
      if (settings.backgroundMaterialId === undefined) delete settings.backgroundMaterialId;
      return { ...current, settings };
    });

  return { draft, update, changeSettings };
}
