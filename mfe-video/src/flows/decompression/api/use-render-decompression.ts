import { useRef } from 'react';
import { App } from 'antd';
import { useSetAtom } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  genVideo,
  getUserLimitInfo,
  isApiError,
  newIdempotencyKey,
  errorMessage,
} from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useSavedWork } from '../../../flow-kit/use-saved-work';
import { titleOf } from '../../../flow-kit/video-text';
import { savedWorkOf } from '../../../flow-kit/work-edits';
import { usePageNavigate } from '../../../lib/phone';
import {
  decompressionQuery,
  draftSettingsOf,
  workIdOf,
  type DecompressionDraftUpdate,
  type DecompressionType,
  type KeptDecompressionDraft,
} from '../decompression-flow';
import { saveDecompressionWork } from './save-decompression-work';

/**
 * 确认生成: the work is made (or saved over, on the revision it was last saved or read at) now
 * that the creator has committed, then rendered. When the person chose the newest work over
 * their edit, it replaces what this page had and nothing is rendered (the dialog closes).
 * A failure is said and rejects, so the confirmation stays open.
 */
export function useRenderDecompression(
  type: DecompressionType,
  draft: KeptDecompressionDraft,
  update: DecompressionDraftUpdate,
) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const [params] = useSearchParams();
  const setLimits = useSetAtom(usageLimitsAtom);
  // The work, once 确认生成 has made it (or the address named it): a retry renders this one.
  const workId = useRef<number | null>(workIdOf(params));
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(workIdOf(params), draft.saved);

  return async () => {
    try {
      const over = workId.current !== null ? await savedWork.base() : null;
      if (workId.current !== null && !over) throw new Error(savedWork.problem());
      // Kept in the session until the work is made: a try again reuses it (see the draft).
      const createKey = over ? undefined : (draft.createKey ?? newIdempotencyKey());
      if (createKey && !draft.createKey) update((current) => ({ ...current, createKey }));
      const saved = await saveDecompressionWork(
        {
          saved: over,
          type,
          title: draft.title.trim() || titleOf(draft.text),
          draft: { ...draft, ...(createKey ? { createKey } : {}) },
        },
        revisionedSave,
      );
      if (!saved) {
        // The person chose the work as saved elsewhere: it replaces what this page had.
        const newest = await savedWork.takeNewest();
        if (newest) {
          update(() => ({
            title: newest.title,
            text: newest.text,
            settings: draftSettingsOf(newest.settings),
            saved: savedWorkOf(newest),
          }));
        }
        return;
      }
      const id = saved.workId;
      // Kept with the draft: the next save over the work, after a reload too, is based on it.
      // Made: the key is dropped, the next work of this page is another action.
      update(({ createKey: _made, ...current }) => ({ ...current, saved }));
      if (id !== workId.current) {
        workId.current = id;
        // The work in the address: a reload or a retry goes on with it, not a second work.
        navigate(`/video/decompression${decompressionQuery(type, id)}`, { replace: true });
      }
      await genVideo({ workId: id });
      getUserLimitInfo(undefined).then(setLimits, () => undefined);
      navigate(`/video/production?workId=${id}`);
    } catch (reason) {
      void message.error(
        reason instanceof Error && !isApiError(reason) ? reason.message : errorMessage(reason),
      );
      throw reason;
    }
  };
}
