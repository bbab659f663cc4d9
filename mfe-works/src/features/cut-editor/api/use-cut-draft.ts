import { useCallback, useEffect, useState } from 'react';
import {
  getCutVideo,
  mergeEdits,
  updateCutVideoData,
  type CutVideo,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { adoptAudio, draftOf, saveBody, type CutDraft, type LocalSegment } from '../model';
import { SaveQueue, type SaveStatus } from './save-queue';

/** What a save sends of the draft (no keys): the parts merged with another tab's save. */
const bodyOf = (draft: CutDraft) => {
  const { segments, musicId, musicVolume } = saveBody(0, draft);
  return { segments, musicId, ...(musicVolume !== undefined ? { musicVolume } : {}) };
};
type CutBody = ReturnType<typeof bodyOf>;

/**
 * The draft of a saved body, keeping the keys of `like` by position (the selected segment
 * stays selected) and, for a segment still silent, what its last speech said.
 */
function draftOfBody(body: CutBody, like: CutDraft): CutDraft {
  const fresh = draftOf({
    workId: 0,
    voiceId: '',
    finished: false,
    revision: 1,
    segments: body.segments,
    musicId: body.musicId,
    musicVolume: body.musicVolume ?? null,
  });
  return {
    ...fresh,
    segments: fresh.segments.map((s, i) => ({
      ...s,
      key: like.segments[i]?.key ?? s.key,
      spokenText: s.audioUrl ? s.spokenText : (like.segments[i]?.spokenText ?? null),
    })),
  };
}

/**
 * What the server holds, in the order it holds it (its answers line up with this list), its
 * revision (the next save is based on it) and the body it holds. Plain object: the save
 * queue's callbacks read and change it.
 */
class StoredCut {
  segments: LocalSegment[];
  revision: number;
  base: CutBody;
  /** The last save went out on a newer revision than the page had: it was merged. */
  merged = false;
  private reload: () => void = () => {};

  constructor(draft: CutDraft, revision: number) {
    this.segments = draft.segments;
    this.revision = revision;
    this.base = bodyOf(draft);
  }

  /** The cut video read again (after its speech): the next save is based on it. */
  fetched(cut: CutVideo): void {
    this.revision = cut.revision;
    this.base = bodyOf(draftOf(cut));
  }

  /** What 载入最新内容 does (set by the editor as it renders). */
  onReload(reload: () => void): void {
    this.reload = reload;
  }

  reloadChosen(): void {
    this.reload();
  }
}

/** The person chose 载入最新内容 after a conflict: the editor loads the cut video again. */
class ReloadChosen extends Error {}

/**
 * The cut video as the user edits it, saved as they go: every edit is kept here and sent with
 * `update_cut_video_data` once the typing pauses (one save at a time, the newest queued), so a
 * failed save loses nothing and 重试 sends it again. Leaving the page with unsaved edits asks
 * first (`beforeunload`; the host's router is not a data router, so there is no in-app blocker,
 * and the editor sends a pending edit when it goes away).
 *
 * Each save names the revision the editor's data was loaded or last saved at. When another tab
 * (or the speech of a segment) changed the cut video since, the edit is merged into the newest
 * data and saved again; when both changed the same part, the person chooses (their edit stays
 * on the page until they choose to load the newest, which `onReload` does).
 */
export function useCutDraft(
  workId: number,
  initial: CutVideo,
  saveDelayMs: number,
  onReload: () => void,
) {
  const [draft, setDraft] = useState<CutDraft>(() => draftOf(initial));
  const [status, setStatus] = useState<SaveStatus>({ state: 'saved' });
  const [stored] = useState(() => new StoredCut(draft, initial.revision));
  const revisionedSave = useRevisionedSave();
  const [queue] = useState(
    () =>
      new SaveQueue<CutDraft, CutVideo>({
        initial: draft,
        delayMs: saveDelayMs,
        save: async (value) => {
          const saved = await revisionedSave<CutBody, CutVideo>({
            base: stored.base,
            edited: bodyOf(value),
            revision: stored.revision,
            save: (body, revision) => {
              stored.merged = revision !== stored.revision;
              return updateCutVideoData({ workId, revision, ...body });
            },
            load: async () => {
              const newest = await getCutVideo({ workId });
              return { value: bodyOf(draftOf(newest)), revision: newest.revision };
            },
          });
          if (!saved) {
            stored.reloadChosen();
            throw new ReloadChosen('已载入最新内容');
          }
          return saved;
        },
        onSaved: (sent, cut, latest) => {
          stored.segments = sent.segments;
          stored.revision = cut.revision;
          const answered = bodyOf(draftOf(cut));
          stored.base = answered;
          if (stored.merged) {
            // Saved merged with another tab's change: the page shows what is stored now, with
            // any edit made while the save was out on top.
            const shown = draftOfBody(
              mergeEdits(bodyOf(sent), bodyOf(latest), answered).value,
              latest,
            );
            setDraft(shown);
            return shown;
          }
          const next = adoptAudio(latest, sent.segments, cut);
          if (next !== latest) setDraft(next);
          return next;
        },
        onStatus: setStatus,
        describe: (error) => errorMessage(error),
      }),
  );

  useEffect(() => {
    // Choosing the stored version drops the edit: nothing is sent when the editor goes.
    stored.onReload(() => {
      queue.discard();
      onReload();
    });
  });

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
      // The speech moved the revision on: the next save is based on what was fetched.
      stored.fetched(cut);
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
