import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import {
  ANIME_NARRATOR,
  genImg,
  getWorkInfo,
  mergeEdits,
  type AnimeCamera,
  type ImageResult,
  type Shot,
  type WorkDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useImageTasks } from '../../../hooks/use-image-tasks';
import {
  autoPrompt,
  captionOf,
  newKey,
  scriptProblem,
  scriptText,
} from '../../../lib/anime-script';
import { saveTextEdit, serialQueue } from '../../../lib/work-edits';

/** How long after the last edit the storyboard is saved onto the work. */
export const STORYBOARD_AUTOSAVE_MS = 600;
/** Longest scene name the server takes. */
export const MAX_SCENE_CHARS = 30;

/** A storyboard shot as the page edits it: every storyboard field present. */
export interface BoardShot {
  key: string;
  speaker: string;
  line: string;
  camera: AnimeCamera;
  scene: string;
  imagePrompt: string;
  imageUrl: string;
  needsRegeneration: boolean;
  roleIds: number[];
}

export type BoardField = 'speaker' | 'line' | 'camera' | 'scene' | 'imagePrompt';

const boardOf = (work: WorkDetail): BoardShot[] =>
  work.shots.map((shot) => ({
    key: newKey(),
    speaker: shot.speaker ?? ANIME_NARRATOR,
    line: shot.line ?? shot.caption,
    camera: shot.camera ?? '中景',
    scene: shot.scene ?? '故事场景',
    imagePrompt: shot.imagePrompt,
    imageUrl: shot.imageUrl,
    needsRegeneration: shot.needsRegeneration,
    roleIds: shot.roleIds,
  }));

/** The work's shots of a board, indexed in order; audio is made by the render. */
const shotsOf = (board: readonly BoardShot[]): Shot[] =>
  board.map((shot, index) => ({
    index,
    caption: captionOf(shot.speaker.trim(), shot.line.trim()),
    imagePrompt: shot.imagePrompt.trim(),
    roleIds: shot.roleIds,
    imageUrl: shot.imageUrl,
    audioUrl: '',
    durationMs: 0,
    needsRegeneration: shot.needsRegeneration,
    speaker: shot.speaker.trim(),
    line: shot.line.trim(),
    camera: shot.camera,
    scene: shot.scene.trim(),
  }));

/** The script a board makes: its speakers' lines. */
const textOf = (shots: readonly Shot[]) =>
  scriptText(shots.map((shot) => ({ speaker: shot.speaker ?? '', text: shot.line ?? '' })));

interface StoryboardParts {
  text: string;
  shots: Shot[];
}

/** A work's text and shots as a save of the board sends them (so a change is a real change). */
const partsOf = (work: WorkDetail): StoryboardParts => ({
  text: work.text,
  shots: shotsOf(boardOf(work)),
});

/** A saved work's shots onto the page's board, each shot keeping its key (its picture task). */
function boardAfter(board: readonly BoardShot[], work: WorkDetail): BoardShot[] {
  const next = boardOf(work);
  if (next.length !== board.length) return next;
  return next.map((shot, i) => ({ ...shot, key: board[i]?.key ?? shot.key }));
}

/** Why a board cannot be saved, in Chinese, or null when it can. */
export function boardProblem(board: readonly BoardShot[]): string | null {
  const lines = board.map((shot) => ({ speaker: shot.speaker, text: shot.line }));
  const problem = scriptProblem(lines);
  if (problem) return problem.replace(/第 (\d+) 行/, '第 $1 个镜头');
  for (const [i, shot] of board.entries()) {
    if (!shot.scene.trim()) return `第 ${i + 1} 个镜头的场景为空，请填写`;
    if (shot.scene.trim().length > MAX_SCENE_CHARS) {
      return `第 ${i + 1} 个镜头的场景超过 ${MAX_SCENE_CHARS} 个字`;
    }
    if (!shot.imagePrompt.trim()) return `第 ${i + 1} 个镜头的画面描述为空，请填写`;
  }
  return null;
}

/**
 * The storyboard of a work: its shots (`work_info`), edited field by field, merged and split,
 * and saved back with the script they make (`update_text` with text and shots, so the render
 * uses exactly this storyboard) a moment after each edit. One shot's picture is redrawn with
 * `gen_img` and followed with `img_result`.
 *
 * Each save is based on the work the board was last read from or saved as, one after another.
 * A picture the server drew meanwhile (or another tab's edit of another shot) is merged in and
 * shown; the person is asked when the same part was changed both ways.
 */
export function useStoryboard(workId: number | null, editable: boolean) {
  const { message } = App.useApp();
  const revisionedSave = useRevisionedSave();
  const [work, setWork] = useState<WorkDetail | null>(null);
  const [board, setBoardState] = useState<BoardShot[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const latest = useRef<BoardShot[] | null>(null);
  const dirty = useRef(false);
  /** The parts of the work the board was last read from or saved as, and its revision. */
  const base = useRef<{ parts: StoryboardParts; revision: number } | null>(null);
  const [queue] = useState(serialQueue);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  /**
   * A fresh copy of the work: its shots replace the page's unless the page has unsaved edits,
   * which stay based on the copy they were made on (their save merges the newer one in).
   */
  const apply = useCallback((answer: WorkDetail) => {
    setWork(answer);
    setLoadError(null);
    if (!dirty.current) {
      const next = boardOf(answer);
      latest.current = next;
      base.current = { parts: partsOf(answer), revision: answer.revision };
      setBoardState(next);
    }
  }, []);
  const failed = useCallback((reason: unknown) => setLoadError(errorMessage(reason)), []);

  useEffect(() => {
    if (workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (answer) => {
        if (live) apply(answer);
      },
      (reason: unknown) => {
        if (live) failed(reason);
      },
    );
    return () => {
      live = false;
    };
  }, [workId, apply, failed]);

  /** Reads the work again (the storyboard task wrote shots or pictures onto it). */
  const load = useCallback(async () => {
    if (workId === null) return;
    await getWorkInfo({ workId }).then(apply, failed);
  }, [workId, apply, failed]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** Saves the board now; answers false when it cannot be saved (the problem is shown). */
  const flush = useCallback(
    (): Promise<boolean> =>
      queue(async () => {
        if (timer.current) clearTimeout(timer.current);
        timer.current = null;
        const current = latest.current;
        const from = base.current;
        if (workId === null || !current || !from) return false;
        if (!dirty.current) return true;
        const problem = boardProblem(current);
        if (problem) {
          setSaveError(problem);
          return false;
        }
        setSaving(true);
        try {
          const shots = shotsOf(current);
          const saved = await saveTextEdit(revisionedSave, workId, {
            base: from.parts,
            edited: { text: textOf(shots), shots },
            revision: from.revision,
            pick: partsOf,
          });
          if (!saved) {
            // The person chose the newest storyboard: it replaces the board.
            dirty.current = false;
            setSaveError(null);
            apply(await getWorkInfo({ workId }));
            return false;
          }
          setWork(saved);
          base.current = { parts: partsOf(saved), revision: saved.revision };
          // What the save merged in (a picture drawn meanwhile) shows, under edits made since.
          const shown = mergeEdits(
            current,
            latest.current ?? current,
            boardAfter(current, saved),
          ).value;
          latest.current = shown;
          setBoardState(shown);
          // Still unsaved: the edits made while the call ran (their own timer saves them).
          dirty.current = JSON.stringify(shotsOf(shown)) !== JSON.stringify(partsOf(saved).shots);
          setSaveError(null);
          return true;
        } catch (reason) {
          setSaveError(`分镜保存失败：${errorMessage(reason)}`);
          return false;
        } finally {
          setSaving(false);
        }
      }),
    [queue, revisionedSave, workId, apply],
  );

  const setBoard = useCallback(
    (change: (current: BoardShot[]) => BoardShot[]) => {
      const current = latest.current;
      if (!current) return;
      const next = change(current);
      latest.current = next;
      dirty.current = true;
      setBoardState(next);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), STORYBOARD_AUTOSAVE_MS);
    },
    [flush],
  );

  const arrived = useCallback(
    (key: string, result: ImageResult) => {
      if (result.state !== 'succeeded' || !result.imageUrl) return;
      // The picture was written onto the work's shot; the page's copy follows, and is saved
      // again so any edit made while it drew is not lost to the server's write.
      setBoard((all) =>
        all.map((shot) =>
          shot.key === key
            ? { ...shot, imageUrl: result.imageUrl, needsRegeneration: result.error !== null }
            : shot,
        ),
      );
    },
    [setBoard],
  );
  const images = useImageTasks(arrived);

  const guard = () => {
    if (!editable) void message.warning('画面还在生成中，完成后才能修改分镜');
    return editable;
  };

  const edit = (index: number, field: BoardField, value: string) => {
    if (!guard()) return;
    setBoard((all) =>
      all.map((shot, i) => {
        if (i !== index) return shot;
        const next = { ...shot, [field]: value } as BoardShot;
        // A prompt the storyboard wrote follows the fields it was written from.
        if (field !== 'imagePrompt' && shot.imagePrompt === autoPrompt(shot)) {
          next.imagePrompt = autoPrompt(next);
        }
        return next;
      }),
    );
  };

  /** This shot and the next become one: the same speaker's lines, this shot's picture. */
  const mergeWithNext = (index: number) => {
    if (!guard() || !latest.current) return;
    const a = latest.current[index];
    const b = latest.current[index + 1];
    if (!a || !b) return;
    if (a.speaker.trim() !== b.speaker.trim()) {
      void message.error(
        `第 ${index + 1} 和第 ${index + 2} 个镜头的角色不同（${a.speaker}、${b.speaker}），只能合并同一角色的相邻台词`,
      );
      return;
    }
    setBoard((all) => {
      const merged: BoardShot = { ...a, line: `${a.line.trim()}${b.line.trim()}` };
      if (a.imagePrompt === autoPrompt(a)) merged.imagePrompt = autoPrompt(merged);
      const next = [...all];
      next.splice(index, 2, merged);
      return next;
    });
    void message.success(`已合并第 ${index + 1} 和第 ${index + 2} 个镜头`);
  };

  /** The shot's line cut at `at`: the first part keeps the picture, the second is drawn anew. */
  const split = (index: number, at: number) => {
    if (!guard() || !latest.current) return;
    const shot = latest.current[index];
    if (!shot) return;
    const head = shot.line.slice(0, at).trim();
    const tail = shot.line.slice(at).trim();
    if (!head || !tail) {
      void message.error('请把光标放在台词中间要拆开的位置，再点拆分');
      return;
    }
    setBoard((all) => {
      const first: BoardShot = { ...shot, line: head };
      const second: BoardShot = {
        ...shot,
        key: newKey(),
        line: tail,
        imageUrl: '',
        needsRegeneration: false,
      };
      if (shot.imagePrompt === autoPrompt(shot)) {
        first.imagePrompt = autoPrompt(first);
        second.imagePrompt = autoPrompt(second);
      }
      const next = [...all];
      next.splice(index, 1, first, second);
      return next;
    });
  };

  /** Redraws one shot's picture from its (saved) prompt. */
  const redraw = async (index: number) => {
    if (!guard() || workId === null) return;
    if (!(await flush())) {
      void message.error('分镜还没有保存，改好提示的问题后再重画');
      return;
    }
    const shot = latest.current?.[index];
    if (!shot) return;
    const styleId = work?.settings.imageStyleId;
    const started = await images.start(shot.key, () =>
      genImg({
        workId,
        shotIndex: index,
        prompt: shot.imagePrompt.trim(),
        ...(styleId ? { imageStyleId: styleId } : {}),
      }),
    );
    if (!started) void message.error(`第 ${index + 1} 个镜头的画面没有开始重画`);
  };

  return {
    work,
    board,
    loadError,
    load,
    saving,
    saveError,
    flush,
    edit,
    mergeWithNext,
    split,
    redraw,
    drawing: images.pictures,
  };
}
