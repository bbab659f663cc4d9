import { useCallback, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, type Shot } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { saveTextEdit, serialQueue } from '../../../flow-kit/work-edits';
import { useAutosave } from '../../../hooks/use-autosave';
import { boardProblem, partsOf, shotsOf, textOf, type BoardBase } from '../board';
import type { BoardStore } from './use-board';
import { storyboardWorkKey } from './use-storyboard-work';

/** How long after the last edit the storyboard is saved onto the work. */
export const STORYBOARD_AUTOSAVE_MS = 600;

interface SaveInput {
  workId: number;
  base: BoardBase;
  shots: Shot[];
}

/**
 * Saves the board onto the work with the script it makes (`update_text` with text and shots, so
 * the render uses exactly this storyboard), a moment after the last edit (`schedule`) or at once
 * (`flush`). Saves run one after another, each based on the work the board was last read from or
 * saved as; a change made meanwhile (a picture the server drew, another tab's edit of another
 * shot) is merged in and shown, and the person is asked when the same part was changed both ways.
 * The saved work goes into the query cache, where the next page finds it.
 */
export function useStoryboardSave(
  workId: number | null,
  board: BoardStore,
  /** Reads the work again (throwing when it cannot): the person chose the newest storyboard. */
  reread: () => Promise<void>,
) {
  const client = useQueryClient();
  const revisionedSave = useRevisionedSave();
  const [saveError, setSaveError] = useState<string | null>(null);
  const [queue] = useState(serialQueue);

  const { mutateAsync: save, isPending: saving } = useMutation({
    mutationFn: ({ workId, base, shots }: SaveInput) =>
      saveTextEdit(revisionedSave, workId, {
        base: base.parts,
        edited: { text: textOf(shots), shots },
        revision: base.revision,
        pick: partsOf,
      }),
    onSuccess: (saved, { workId }) => {
      if (saved) client.setQueryData(storyboardWorkKey(workId), saved);
    },
  });

  /** Saves the board; answers false when it cannot be saved (the problem is shown). */
  const saveBoard = useCallback(async (): Promise<boolean> => {
    const current = board.current();
    const base = board.base();
    if (workId === null || !current || !base) return false;
    if (!board.dirty()) return true;
    const problem = boardProblem(current);
    if (problem) {
      setSaveError(problem);
      return false;
    }
    try {
      const saved = await save({ workId, base, shots: shotsOf(current) });
      if (!saved) {
        // The person chose the newest storyboard: it replaces the board.
        board.discard();
        setSaveError(null);
        await reread();
        return false;
      }
      // Edits made while the call ran stay unsaved: their own timer saves them.
      board.saved(current, saved);
      setSaveError(null);
      return true;
    } catch (reason) {
      setSaveError(`分镜保存失败：${errorMessage(reason)}`);
      return false;
    }
  }, [board, workId, save, reread]);
  // `flush` saves now, `schedule` a moment after the last edit.
  const { flush, schedule } = useAutosave(saveBoard, { delayMs: STORYBOARD_AUTOSAVE_MS, queue });

  return { saving, saveError, flush, schedule };
}
