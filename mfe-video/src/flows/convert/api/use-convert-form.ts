import { useRef, useState } from 'react';
import { App } from 'antd';
import { useSearchParams } from '@kol/shared-sdk/router';
import { useRevisionedSave, useSingleFlight } from '@kol/shared-sdk/ui';
import { estimateNarrationMs, isApiError, narrationVoiceOf, errorMessage } from '@kol/shared-sdk';
import { useSavedWork } from '../../../flow-kit/use-saved-work';
import { usePageNavigate } from '../../../lib/phone';
import {
  CONVERT_TYPE,
  convertPath,
  scriptProblem,
  stepOf,
  type ConvertDraftUpdate,
  type ConvertSettings,
  type ConvertStep,
  type KeptConvertDraft,
} from '../convert-flow';
import type { ConvertDraft } from '../draft';
import { saveConvertWork } from './save-convert-work';
import { draftOfWork } from './use-convert-draft';
import { useConvertScript } from './use-convert-script';

/** Why a save failed, in Chinese: the server's reason, or the page's own (the work not read). */
const saveProblem = (reason: unknown) =>
  reason instanceof Error && !isApiError(reason) ? reason.message : errorMessage(reason);

/**
 * The reverse video page's state and actions over its draft: the step in the address, the
 * script read from the clip and rewritten (`useConvertScript`), the checks, and the work saved
 * when the script is done (and again before it renders). The step screen composes its
 * sections over these.
 */
export function useConvertForm(draft: KeptConvertDraft, update: ConvertDraftUpdate) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const [params] = useSearchParams();
  const step = stepOf(params.get('step'));
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const script = useConvertScript(draft, update, setProblem);
  const { extract } = script;
  const workIdRef = useRef<number | null>(draft.workId);
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft.workId, draft.saved);

  const go = (to: ConvertStep) => {
    setProblem(null);
    navigate(convertPath(to, workIdRef.current));
  };

  const toScript = async () => {
    if (!draft.source) {
      setProblem('请先上传「原视频」');
      return;
    }
    if (!draft.extracted && !(await extract())) return;
    go('script');
  };

  /** The script can be rendered; false (with the reason shown) when it cannot. Makes nothing. */
  const checkScript = async (): Promise<boolean> => {
    const found = scriptProblem(draft.script);
    setProblem(found);
    return found === null;
  };

  /**
   * Saves the work (made on the first save; saved over on the revision the draft was read or
   * last saved at) and answers its id, or null when the person chose the newest work instead
   * (it then replaces this page's draft); a failure rejects.
   */
  const saveWork = async (): Promise<number | null> => {
    const over = draft.workId !== null ? await savedWork.base() : null;
    if (draft.workId !== null && !over) throw new Error(savedWork.problem());
    setSaving(true);
    try {
      const now = await saveConvertWork(draft, over, revisionedSave, (saved) => {
        workIdRef.current = saved.workId;
        // Kept with the draft: the next save, after a reload too, is based on this revision.
        update((current) => ({ ...current, workId: saved.workId, saved }));
      });
      if (!now) {
        // The person chose the work as saved elsewhere: it replaces this page's draft.
        const newest = await savedWork.takeNewest();
        if (newest) update(() => draftOfWork(newest));
        return null;
      }
      return now.workId;
    } finally {
      setSaving(false);
    }
  };

  /** 确认生成's save: the latest script and settings onto the work before it renders. */
  const saveForRender = async (): Promise<number | null> => {
    try {
      return await saveWork();
    } catch (reason) {
      throw new Error(`保存作品失败：${saveProblem(reason)}`, { cause: reason });
    }
  };

  // The script is done: the work is made (or updated) now, so it can be opened again. Once per
  // click: a double click makes one work.
  const toRender = useSingleFlight(async () => {
    if (!(await checkScript())) return;
    try {
      if ((await saveWork()) !== null) go('render');
    } catch (reason) {
      void message.error(`保存作品失败：${saveProblem(reason)}`);
    }
  });

  /** A new clip has its own script: the old one's is read again on the next step. */
  const sourceUploaded = (source: NonNullable<ConvertDraft['source']>) => {
    setProblem(null);
    update((current) => ({ ...current, source, extracted: null }));
  };

  const changeSettings = (patch: Partial<ConvertSettings>) =>
    update((current) => ({ ...current, settings: { ...current.settings, ...patch } }));

  // The source's footage is looped or cut to the new narration: the video lasts as long as the
  // script spoken in the chosen voice.
  const estimatedMs = estimateNarrationMs(draft.script, {
    voiceId: narrationVoiceOf(CONVERT_TYPE, draft.settings.voiceId),
    speed: draft.settings.speed ?? 1,
  });

  return {
    step,
    problem,
    estimatedMs,
    uploading,
    setUploading,
    ...script,
    saving,
    go,
    toScript,
    checkScript,
    saveForRender,
    toRender,
    sourceUploaded,
    changeSettings,
  };
}

export type ConvertForm = ReturnType<typeof useConvertForm>;
