import { useCallback } from 'react';
import { App } from 'antd';
import { genImg, type ImageResult } from '@kol/shared-sdk';
import { useImageTasks } from '../../../hooks/use-image-tasks';
import type { BoardShot } from '../board';
import { useBoard } from './use-board';
import { useStoryboardEdits } from './use-storyboard-edits';
import { useStoryboardSave } from './use-storyboard-save';
import { useStoryboardWork } from './use-storyboard-work';

export { MAX_SCENE_CHARS, boardProblem, type BoardField, type BoardShot } from '../board';
export { STORYBOARD_AUTOSAVE_MS } from './use-storyboard-save';
export { storyboardWorkKey } from './use-storyboard-work';

/**
 * The storyboard of a work: its shots (`work_info`, `useStoryboardWork`), edited field by field,
 * merged and split (`useStoryboardEdits`), and saved back a moment after each edit
 * (`useStoryboardSave`). One shot's picture is redrawn with `gen_img` and followed with
 * `img_result` (`useImageTasks`); it lands on the shot that asked for it.
 */
export function useStoryboard(workId: number | null, editable: boolean) {
  const { message } = App.useApp();
  const { board, store } = useBoard();
  const source = useStoryboardWork(workId, store.receive);
  const save = useStoryboardSave(workId, store, source.reread);
  const { schedule } = save;

  const change = useCallback(
    (edit: (current: BoardShot[]) => BoardShot[]) => {
      if (store.change(edit)) schedule();
    },
    [store, schedule],
  );
  const edits = useStoryboardEdits(store, editable, change);

  const arrived = useCallback(
    (key: string, result: ImageResult) => {
      if (result.state !== 'succeeded' || !result.imageUrl) return;
      // The picture was written onto the work's shot; the page's copy follows, and is saved
      // again so any edit made while it drew is not lost to the server's write.
      change((all) =>
        all.map((shot) =>
          shot.key === key
            ? {
                ...shot,
                imageUrl: result.imageUrl,
                needsRegeneration: result.error !== null,
                imageEngine: result.engine,
                // A new picture: the clip of the old one went with it (gen_img drops it).
                clipUrl: undefined,
                clipEngine: undefined,
                clipError: undefined,
              }
            : shot,
        ),
      );
    },
    [change],
  );
  const images = useImageTasks(arrived);

  /** Redraws one shot's picture from its (saved) prompt. */
  const redraw = async (index: number) => {
    if (!edits.mayEdit() || workId === null) return;
    if (!(await save.flush())) {
      void message.error('分镜还没有保存，改好提示的问题后再重画');
      return;
    }
    const shot = store.current()?.[index];
    if (!shot) return;
    const styleId = source.work?.settings.imageStyleId;
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
    work: source.work,
    board,
    loadError: source.loadError,
    load: source.load,
    saving: save.saving,
    saveError: save.saveError,
    flush: save.flush,
    edit: edits.edit,
    mergeWithNext: edits.mergeWithNext,
    split: edits.split,
    redraw,
    drawing: images.pictures,
  };
}
