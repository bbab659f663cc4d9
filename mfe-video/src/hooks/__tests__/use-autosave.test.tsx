import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { serialQueue } from '../../flow-kit/work-edits';
import { useAutosave } from '../use-autosave';

const DELAY = 500;

/** A save that answers when the test lets it (`answer`), counting its runs. */
function heldSave() {
  const answers: ((saved: boolean) => void)[] = [];
  const save = jest.fn(
    () =>
      new Promise<boolean>((resolve) => {
        answers.push(resolve);
      }),
  );
  return { save, answer: (saved: boolean) => answers.shift()?.(saved) };
}

function render(save: () => Promise<boolean>) {
  const queue = serialQueue();
  return renderHook(() => useAutosave(save, { delayMs: DELAY, queue }));
}

/** Lets the queue's promises move on (fake timers do not hold them). */
const settle = () => act(async () => undefined);

describe('useAutosave', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('saves once, a moment after the last of several changes', async () => {
    const save = jest.fn(async () => true);
    const { result } = render(save);
    act(() => result.current.schedule());
    act(() => jest.advanceTimersByTime(DELAY - 100));
    act(() => result.current.schedule());
    act(() => jest.advanceTimersByTime(DELAY - 100));
    await settle();
    expect(save).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(100));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('flush saves at once, answers the save, and drops the pending one', async () => {
    const save = jest.fn(async () => false);
    const { result } = render(save);
    act(() => result.current.schedule());
    let answer: boolean | undefined;
    await act(async () => {
      answer = await result.current.flush();
    });
    expect(answer).toBe(false);
    act(() => jest.advanceTimersByTime(DELAY * 2));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('saves one after another: a flush waits for the save under way', async () => {
    const held = heldSave();
    const { result } = render(held.save);
    act(() => result.current.schedule());
    act(() => jest.advanceTimersByTime(DELAY));
    await settle();
    expect(held.save).toHaveBeenCalledTimes(1);

    let flushed = false;
    act(() => {
      void result.current.flush().then(() => (flushed = true));
    });
    // A change while the first save runs: the queued flush, once it starts, saves it instead.
    act(() => result.current.schedule());
    await settle();
    expect(held.save).toHaveBeenCalledTimes(1);

    await act(async () => held.answer(true));
    expect(held.save).toHaveBeenCalledTimes(2);
    await act(async () => held.answer(true));
    expect(flushed).toBe(true);
    act(() => jest.advanceTimersByTime(DELAY * 2));
    await settle();
    expect(held.save).toHaveBeenCalledTimes(2);
  });

  it('leaving the page saves the pending change at once, and only once', async () => {
    const save = jest.fn(async () => true);
    const { result, unmount } = render(save);
    act(() => result.current.schedule());
    unmount();
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
    act(() => jest.advanceTimersByTime(DELAY * 2));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('leaving the page with nothing pending saves nothing', async () => {
    const save = jest.fn(async () => true);
    const { unmount } = render(save);
    unmount();
    await settle();
    expect(save).not.toHaveBeenCalled();
  });
});
