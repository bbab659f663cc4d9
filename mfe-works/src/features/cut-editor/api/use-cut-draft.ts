import { useCallback, useEffect, useState } from 'react';
import { updateCutVideoData, type CutVideo, errorMessage } from '@kol/shared-sdk';
import { adoptAudio, draftOf, saveBody, type CutDraft, type LocalSegment } from '../model';
import { SaveQueue, type SaveStatus } from './save-queue';

/**
 * The cut video as the user edits it, saved as they go: every edit is kept here and sent with
 * `update_cut_video_data` once the typing pauses (one save at a time, the newest queued), so a
 * failed save loses nothing and 重试 sends it again. Leaving the page with unsaved edits asks
 * first (`beforeunload`; the host's router is not a data router, so there is no in-app blocker,
 * and the editor sends a pending edit when it goes away).
 */
export function useCutDraft(workId: number, initial: CutVideo, saveDelayMs: number) {
  const [draft, setDraft] = useState<CutDraft>(() => draftOf(initial));
  const [status, setStatus] = useState<SaveStatus>({ state: 'saved' });
  // What the server holds, in the order it holds it: its answers line up with this list.
  const [stored] = useState(() => ({ segments: draft.segments }));
  const [queue] = useState(
    () =>
      new SaveQueue<CutDraft, CutVideo>({
        initial: draft,
        delayMs: saveDelayMs,
        save: (value) => updateCutVideoData(saveBody(workId, value)),
        onSaved: (sent, cut, latest) => {
          stored.segments = sent.segments;
          const next = adoptAudio(latest, sent.segments, cut);
          if (next !== latest) setDraft(next);
          return next;
        },
        onStatus: setStatus,
        describe: (error) => errorMessage(error),
      }),
  );

  useEffect(() => {
    queue.attach();
    return () => queue.dispose();
  }, [queue]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!queue.unsaved) return;
      event.preventDefault();
      // Older browsers show the prompt only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [queue]);

  /** An edit of the draft (saved after the pause). */
  const edit = useCallback(
    (change: (current: CutDraft) => CutDraft) => {
      const next = change(queue.latest);
      if (next === queue.latest) return;
      queue.change(next);
      setDraft(next);
    },
    [queue],
  );

  /** Edits one segment by its key. */
  const editSegment = useCallback(
    (key: string, change: (segment: LocalSegment) => LocalSegment) =>
      edit((current) => ({
        ...current,
        segments: current.segments.map((segment) =>
          segment.key === key ? change(segment) : segment,
        ),
      })),
    [edit],
  );

  /** The cut video fetched again (e.g. after its speech was made): its audio goes in. */
  const adoptFetched = useCallback(
    (cut: CutVideo) => {
      const next = adoptAudio(queue.latest, stored.segments, cut);
      if (next === queue.latest) return;
      queue.replace(next);
      setDraft(next);
    },
    [queue, stored],
  );

  const flush = useCallback(() => queue.flush(), [queue]);

  /** The segments as edited right now (for handlers that run after an await). */
  const currentSegments = useCallback(() => queue.latest.segments, [queue]);

  return { draft, status, edit, editSegment, flush, adoptFetched, currentSegments };
}
