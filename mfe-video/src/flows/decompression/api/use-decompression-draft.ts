import { useState } from 'react';
import { ProjectType } from '@kol/shared-sdk';
import { useSearchParams } from '@kol/shared-sdk/router';
import { useVideoHandover } from '../../../flow-kit/text-source/use-video-handover';
import {
  decompressionStore,
  workIdOf,
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
  const [params] = useSearchParams();
  const handover = useVideoHandover(
    overseas ? ProjectType.decompressionOverseas : ProjectType.decompression,
    workIdOf(params),
  );
  const [draft, setDraft] = useState<KeptDecompressionDraft>(() => {
    if (!handover) return store.draft();
    // 发送到视频's text and title start a new video: the settings stay, the work the draft was
    // saved as (and the key of making it) do not.
    const next = { title: handover.title, text: handover.text, settings: store.draft().settings };
    store.setDraft(next);
    return next;
  });

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

  return { draft, update, changeSettings, handedOver: handover !== null };
}
