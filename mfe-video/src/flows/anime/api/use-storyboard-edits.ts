import { App } from 'antd';
import { autoPrompt, newKey } from '../anime-script';
import type { BoardField, BoardShot } from '../board';
import type { BoardStore } from './use-board';

/**
 * The person's edits of the storyboard: a field of a shot, two shots of one speaker merged, a
 * shot split at the cursor. Each goes through `change` (which saves it a moment later); none is
 * made while the storyboard task still draws (`editable` false), which says so instead.
 */
export function useStoryboardEdits(
  board: BoardStore,
  editable: boolean,
  change: (edit: (current: BoardShot[]) => BoardShot[]) => void,
) {
  const { message } = App.useApp();

  /** Whether the storyboard may be edited now; says why not when it may not. */
  const mayEdit = () => {
    if (!editable) void message.warning('画面还在生成中，完成后才能修改分镜');
    return editable;
  };

  const edit = (index: number, field: BoardField, value: string) => {
    if (!mayEdit()) return;
    change((all) =>
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
    const current = board.current();
    if (!mayEdit() || !current) return;
    const a = current[index];
    const b = current[index + 1];
    if (!a || !b) return;
    if (a.speaker.trim() !== b.speaker.trim()) {
      void message.error(
        `第 ${index + 1} 和第 ${index + 2} 个镜头的角色不同（${a.speaker}、${b.speaker}），只能合并同一角色的相邻台词`,
      );
      return;
    }
    change((all) => {
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
    const shot = board.current()?.[index];
    if (!mayEdit() || !shot) return;
    const head = shot.line.slice(0, at).trim();
    const tail = shot.line.slice(at).trim();
    if (!head || !tail) {
      void message.error('请把光标放在台词中间要拆开的位置，再点拆分');
      return;
    }
    change((all) => {
      const first: BoardShot = { ...shot, line: head };
      const second: BoardShot = {
        ...shot,
        key: newKey(),
        line: tail,
        imageUrl: '',
        needsRegeneration: false,
        imageEngine: undefined,
        // No picture yet: no clip of it either.
        clipUrl: undefined,
        clipEngine: undefined,
        clipError: undefined,
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

  return { mayEdit, edit, mergeWithNext, split };
}
