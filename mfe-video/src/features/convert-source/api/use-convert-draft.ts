import { useEffect, useState } from 'react';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import {
  CONVERT_TYPE,
  convertDraftFor,
  emptyConvertDraft,
  readConvertDraft,
  writeConvertDraft,
  type KeptConvertDraft,
} from '../../../lib/convert-flow';
import { savedWorkOf } from '../../../lib/work-edits';

/**
 * A saved reverse video as the page edits it: its clip, script and settings, and the work as read
 * (what saving over it is based on).
 */
export function draftOfWork(work: WorkDetail): KeptConvertDraft {
  const { aspect, voiceId, speed, dedup, sourceVideoUrl } = work.settings;
  const url = sourceVideoUrl?.trim();
  return {
    workId: work.workId,
    title: work.title,
    source: url ? { url, name: work.title, durationMs: null } : null,
    // Read from the clip again only when asked (重新提取): the script is the work's text.
    extracted: null,
    script: work.text,
    settings: {
      ...emptyConvertDraft().settings,
      aspect,
      ...(voiceId !== undefined ? { voiceId } : {}),
      ...(speed !== undefined ? { speed } : {}),
      ...(dedup !== undefined ? { dedup } : {}),
    },
    saved: savedWorkOf(work),
  };
}

/**
 * The reverse video's draft. Every change is written to `KOL_CONVERT_DRAFT` at once, so a
 * reload loses nothing; with a work in the address and no draft of it in the session (a fresh
 * tab, the works list), the work is read back (`work_info`).
 */
export function useConvertDraft(workId: number | null) {
  const [draft, setDraft] = useState<KeptConvertDraft | null>(() =>
    convertDraftFor(workId, readConvertDraft()),
  );
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (draft !== null || workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return;
        if (work.type !== CONVERT_TYPE) {
          setLoadError(`「${work.title}」不是反推视频，不能在这里打开`);
          return;
        }
        const read = draftOfWork(work);
        writeConvertDraft(read);
        setDraft(read);
      },
      (reason: unknown) => live && setLoadError(`作品加载失败：${errorMessage(reason)}`),
    );
    return () => {
      live = false;
    };
  }, [draft, workId, attempt]);

  const update = (change: (current: KeptConvertDraft) => KeptConvertDraft) =>
    setDraft((current) => {
      if (!current) return current;
      const next = change(current);
      writeConvertDraft(next);
      return next;
    });

  const retry = () => {
    setLoadError(null);
    setAttempt((n) => n + 1);
  };

  return { draft, loadError, update, retry };
}
