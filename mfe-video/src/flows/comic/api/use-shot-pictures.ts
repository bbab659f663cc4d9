import { useCallback, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import {
  genImg,
  getWorkInfo,
  mergeEdits,
  type ImageResult,
  type Shot,
  type WorkDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { saveTextEdit, serialQueue } from '../../../flow-kit/work-edits';
import { useImageTasks } from '../../../hooks/use-image-tasks';
import { workKey } from '../../../hooks/work-queries';

/** A shot needs drawing when it has no picture, or its picture is the local stand-in. */
export const needsPicture = (shot: WorkDetail['shots'][number]) =>
  !shot.imageUrl || shot.needsRegeneration;

const shotsOf = (work: WorkDetail): { shots: Shot[] } => ({ shots: work.shots });

/** Each shot's picture prompt, by its index. */
const promptsOf = (work: WorkDetail): Record<number, string> =>
  Object.fromEntries(work.shots.map((shot) => [shot.index, shot.imagePrompt]));

/**
 * The shots of a work with their picture prompts and pictures (`work_info`). Prompts are edited
 * here and saved onto the work (`update_text`); each picture is drawn with `gen_img` for its shot
 * and followed with `img_result`, and lands on the shot as it arrives.
 *
 * The page's `work` is the work as last loaded, saved or read again: a save sends the shots as
 * the page has them with the person's prompts on top, based on that work's revision. The server
 * writes each picture it draws onto its shot (moving the revision on), so a picture's arrival
 * reads the work again; a picture landing between that read and a save is merged in by
 * `useRevisionedSave`, which asks the person only when the same prompt was changed elsewhere.
 */
export function useShotPictures(workId: number) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const revisionedSave = useRevisionedSave();
  const [work, setWorkState] = useState<WorkDetail | null>(null);
  const [prompts, setPromptsState] = useState<Record<number, string>>({});
  /** The provider's message of a shot whose picture fell back to the local frame. */
  const [notes, setNotes] = useState<Record<number, string>>({});
  // The newest of each, for saves queued behind one another (a closure's copy may be old).
  const workRef = useRef<WorkDetail | null>(null);
  const promptsRef = useRef<Record<number, string>>({});
  const [queue] = useState(serialQueue);

  const setWork = useCallback((next: WorkDetail) => {
    workRef.current = next;
    setWorkState(next);
  }, []);
  const setPrompts = useCallback(
    (change: (current: Record<number, string>) => Record<number, string>) => {
      promptsRef.current = change(promptsRef.current);
      setPromptsState(promptsRef.current);
    },
    [],
  );

  /**
   * Whether the next read of the work replaces the person's prompts (on arrival, 重新加载,
   * 载入最新内容) rather than coming in under them (the read after a picture arrived).
   */
  const replacing = useRef(true);

  /**
   * The work read again after the server changed it (a picture drawn). The person's prompts are
   * their own state and stay as typed; only the work, the base of the next save, is replaced.
   */
  const readAgain = useCallback(
    (fresh: WorkDetail) => {
      const current = workRef.current;
      if (!current || fresh.revision < current.revision) return;
      // A prompt changed elsewhere that the person has not touched here shows the new one; one
      // both changed keeps the older base, so saving it asks the person instead of overwriting.
      const merged = mergeEdits(promptsOf(current), promptsRef.current, promptsOf(fresh));
      if (merged.conflicts.length > 0) return;
      setWork(fresh);
      setPrompts(() => merged.value);
    },
    [setWork, setPrompts],
  );

  // A read the page asks for only: on arrival, after a picture, 重新加载, 载入最新内容. A newer
  // read cancels one still under way, so only the last one asked for comes in.
  const query = useQuery({
    queryKey: workKey(workId),
    queryFn: async ({ signal }) => {
      const replace = replacing.current;
      let fresh: WorkDetail;
      try {
        fresh = await getWorkInfo({ workId }, { signal });
      } catch (reason) {
        // A failed read after a picture leaves the page as it is: the next save is then based on
        // the older revision, and merged with the newer work.
        const known = client.getQueryData<WorkDetail>(workKey(workId)) ?? workRef.current;
        if (!replace && known) return known;
        throw reason;
      }
      if (replace) {
        replacing.current = false;
        setWork(fresh);
        setPrompts(() => promptsOf(fresh));
      } else {
        readAgain(fresh);
      }
      return fresh;
    },
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnReconnect: false,
  });
  const { refetch } = query;
  const error = query.error ? errorMessage(query.error) : null;

  /** Reads the work again; its prompts replace the page's. */
  const reload = useCallback(() => {
    replacing.current = true;
    void refetch();
  }, [refetch]);

  // The saved work goes into the query cache, where the next step finds it.
  const { mutateAsync: saveShots, isPending: saving } = useMutation({
    mutationFn: ({ base, edited }: { base: WorkDetail; edited: Shot[] }) =>
      saveTextEdit(revisionedSave, workId, {
        base: shotsOf(base),
        edited: { shots: edited },
        revision: base.revision,
        pick: shotsOf,
      }),
    onSuccess: (saved) => {
      if (saved) client.setQueryData(workKey(workId), saved);
    },
  });

  const arrived = useCallback(
    (key: string, result: ImageResult) => {
      const index = Number(key);
      if (result.state !== 'succeeded') return;
      const fellBack = result.error !== null;
      setNotes((current) => {
        const next = { ...current };
        if (fellBack) next[index] = result.error ?? '';
        else delete next[index];
        return next;
      });
      // Shown at once; the work is then read again, since the server wrote it onto the shot.
      const current = workRef.current;
      if (current) {
        setWork({
          ...current,
          shots: current.shots.map((shot) =>
            shot.index === index
              ? {
                  ...shot,
                  imageUrl: result.imageUrl,
                  needsRegeneration: fellBack,
                  imageEngine: result.engine,
                }
              : shot,
          ),
        });
      }
      void refetch();
    },
    [refetch, setWork],
  );
  const images = useImageTasks(arrived);

  const dirty =
    work?.shots.some((shot) => (prompts[shot.index] ?? '') !== shot.imagePrompt) ?? false;

  /**
   * Saves the edited prompts onto the work, based on the work the page holds. Saves run one after
   * another, each on the revision the one before answered.
   */
  const savePrompts = useCallback(
    (): Promise<boolean> =>
      queue(async () => {
        const base = workRef.current;
        const typed = promptsRef.current;
        if (!base) return true;
        const edited = base.shots.map((shot) => ({
          ...shot,
          imagePrompt: typed[shot.index] ?? shot.imagePrompt,
        }));
        if (edited.every((shot, i) => shot.imagePrompt === base.shots[i]?.imagePrompt)) {
          return true;
        }
        const empty = edited.find((shot) => !shot.imagePrompt.trim());
        if (empty) {
          void message.error(`第 ${empty.index + 1} 个分镜的画面描述为空，请填写`);
          return false;
        }
        try {
          const saved = await saveShots({ base, edited });
          if (!saved) {
            // The person chose the newest work over their prompts: read it again (a save queued
            // meanwhile finds nothing of theirs left to save).
            setPrompts(() => promptsOf(base));
            reload();
            return false;
          }
          setWork(saved);
          return true;
        } catch (reason) {
          void message.error(`画面描述保存失败：${errorMessage(reason)}`);
          return false;
        }
      }),
    [queue, saveShots, message, setWork, setPrompts, reload],
  );

  const draw = async (index: number) => {
    const prompt = (prompts[index] ?? '').trim();
    if (!prompt) {
      void message.error(`第 ${index + 1} 个分镜的画面描述为空，请填写`);
      return;
    }
    if (!(await savePrompts())) return;
    const styleId = work?.settings.imageStyleId;
    const started = await images.start(String(index), () =>
      genImg({
        workId,
        shotIndex: index,
        prompt,
        ...(styleId ? { imageStyleId: styleId } : {}),
      }),
    );
    if (!started) void message.error(`第 ${index + 1} 个分镜的画面没有开始绘制`);
  };

  const drawAll = async () => {
    const waiting = work?.shots.filter(needsPicture) ?? [];
    if (waiting.length === 0) {
      void message.info('所有分镜都已有画面，可以单独重新生成某一张');
      return;
    }
    if (!(await savePrompts())) return;
    for (const shot of waiting) await draw(shot.index);
  };

  return {
    work,
    error,
    reload,
    prompts,
    setPrompt: (index: number, prompt: string) =>
      setPrompts((current) => ({ ...current, [index]: prompt })),
    dirty,
    saving,
    savePrompts,
    draw,
    drawAll,
    drawing: images.pictures,
    notes,
  };
}
