import { useMemo, useRef, useState } from 'react';
import { mergeEdits, type WorkDetail } from '@kol/shared-sdk';
import { boardAfter, partsOf, shotsOf, type BoardBase, type BoardShot } from '../board';

/**
 * The storyboard as the page holds it: the shots shown, whether they carry edits not yet saved,
 * and the work they are based on (the copy last read or saved, and its revision). The newest of
 * each is kept outside React's state too: a save runs after the render that asked for it, and
 * must send the board as it is then, not as that render saw it.
 */
export function useBoard() {
  const [board, setBoard] = useState<BoardShot[] | null>(null);
  const latest = useRef<BoardShot[] | null>(null);
  const dirty = useRef(false);
  const base = useRef<BoardBase | null>(null);

  const store = useMemo(() => {
    const show = (next: BoardShot[]) => {
      latest.current = next;
      setBoard(next);
    };
    return {
      /** The board as it is now (null before the work is read). */
      current: () => latest.current,
      /** The work the board is based on, and its revision (null before the work is read). */
      base: () => base.current,
      /** Whether the board carries edits not yet saved. */
      dirty: () => dirty.current,

      /** An edit: answers false when there is no board yet to edit. */
      change(edit: (current: BoardShot[]) => BoardShot[]): boolean {
        const current = latest.current;
        if (!current) return false;
        dirty.current = true;
        show(edit(current));
        return true;
      },

      /**
       * A copy of the work read from the server: its shots replace the board unless the board
       * has unsaved edits, which stay based on the copy they were made on (their save merges the
       * newer one in). A copy older than the one the board is based on (a read that started
       * before the page's last save answered) is not shown.
       */
      receive(work: WorkDetail) {
        if (dirty.current) return;
        if (base.current && work.revision < base.current.revision) return;
        base.current = { parts: partsOf(work), revision: work.revision };
        show(boardAfter(latest.current ?? [], work));
      },

      /**
       * `sent` was saved as `saved`: the board is now based on it. What the save merged in (a
       * picture drawn meanwhile) shows, under the edits made while it ran, which stay unsaved.
       */
      saved(sent: BoardShot[], saved: WorkDetail) {
        base.current = { parts: partsOf(saved), revision: saved.revision };
        const shown = mergeEdits(sent, latest.current ?? sent, boardAfter(sent, saved)).value;
        show(shown);
        dirty.current = JSON.stringify(shotsOf(shown)) !== JSON.stringify(partsOf(saved).shots);
      },

      /** The person chose the newest storyboard over theirs: the next copy read replaces it. */
      discard() {
        dirty.current = false;
      },
    };
  }, []);

  return { board, store };
}

/** The page's storyboard (`useBoard`), as the hooks that read and change it take it: stable. */
export type BoardStore = ReturnType<typeof useBoard>['store'];
