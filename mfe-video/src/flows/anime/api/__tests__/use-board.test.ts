import { describe, expect, it } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import type { WorkDetail } from '@kol/shared-sdk';
import { ANIME_SCRIPT, ANIME_SHOTS } from '../../../../testing/anime';
import { demoWorkDetail } from '../../../../testing/fixtures';
import { shotsOf } from '../../board';
import { useBoard } from '../use-board';

/** Work 31 at `revision`, its shots changed by `change`. */
function copy(
  revision: number,
  change: (shot: WorkDetail['shots'][number]) => object = () => ({}),
) {
  return demoWorkDetail(31, {
    type: 11,
    text: ANIME_SCRIPT,
    revision,
    shots: ANIME_SHOTS.map((shot) => ({ ...shot, ...change(shot) })),
  });
}

const renderBoard = () => renderHook(() => useBoard());

describe('useBoard', () => {
  it('shows each newer copy read, keeping the shots’ keys, and never an older one', () => {
    const { result } = renderBoard();
    act(() => result.current.store.receive(copy(2)));
    const keys = result.current.board?.map((shot) => shot.key);
    expect(result.current.board?.map((shot) => shot.line)).toEqual([
      '夜里，林舟走进客栈。',
      '掌柜，还有房吗？',
      '只剩一间。',
    ]);

    // The storyboard task drew a picture: the revision moved on.
    const drawn = copy(3, (shot) => (shot.index === 1 ? { imageUrl: '/media/7/x.jpg' } : {}));
    act(() => result.current.store.receive(drawn));
    expect(result.current.board?.[1]?.imageUrl).toBe('/media/7/x.jpg');
    // A picture being drawn for a shot lands by its key.
    expect(result.current.board?.map((shot) => shot.key)).toEqual(keys);
    expect(result.current.store.base()?.revision).toBe(3);

    // A read that started before the picture was written answers late: it is not shown.
    act(() => result.current.store.receive(copy(2)));
    expect(result.current.board?.[1]?.imageUrl).toBe('/media/7/x.jpg');
    expect(result.current.store.base()?.revision).toBe(3);
  });

  it('keeps unsaved edits over a newer copy, and shows what their save merged in under edits made since', () => {
    const { result } = renderBoard();
    act(() => result.current.store.receive(copy(2)));
    act(() => {
      result.current.store.change((all) =>
        all.map((shot, i) => (i === 2 ? { ...shot, line: '只剩一间上房。' } : shot)),
      );
    });
    expect(result.current.store.dirty()).toBe(true);
    const sent = result.current.store.current() ?? [];

    act(() => result.current.store.receive(copy(3, () => ({ scene: '别处' }))));
    expect(result.current.board?.[0]?.scene).toBe('客栈');
    expect(result.current.store.base()?.revision).toBe(2);

    // While the save ran the person edited another shot; the server had drawn shot 2's picture.
    act(() => {
      result.current.store.change((all) =>
        all.map((shot, i) => (i === 0 ? { ...shot, scene: '雨夜客栈' } : shot)),
      );
    });
    const saved = {
      ...copy(4, (shot) => (shot.index === 1 ? { imageUrl: '/media/7/x.jpg' } : {})),
      shots: shotsOf(sent).map((shot) =>
        shot.index === 1 ? { ...shot, imageUrl: '/media/7/x.jpg' } : shot,
      ),
    };
    act(() => result.current.store.saved(sent, saved));
    expect(result.current.board?.map((shot) => [shot.scene, shot.line, shot.imageUrl])).toEqual([
      ['雨夜客栈', '夜里，林舟走进客栈。', ANIME_SHOTS[0]?.imageUrl],
      ['客栈', '掌柜，还有房吗？', '/media/7/x.jpg'],
      ['客栈', '只剩一间上房。', ANIME_SHOTS[2]?.imageUrl],
    ]);
    expect(result.current.store.base()?.revision).toBe(4);
    // The scene typed during the save is still to be saved.
    expect(result.current.store.dirty()).toBe(true);

    // The person chose the newest storyboard: the next copy read replaces the board.
    act(() => result.current.store.discard());
    act(() => result.current.store.receive(copy(5)));
    expect(result.current.board?.[0]?.scene).toBe('客栈');
    expect(result.current.board?.[2]?.line).toBe('只剩一间。');
  });
});
