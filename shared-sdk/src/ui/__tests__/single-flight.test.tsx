import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useSingleFlight } from '..';

function CreateButton({ create }: { create: () => Promise<void> }) {
  const { run, busy } = useSingleFlight(create);
  return (
    <button type="button" onClick={() => void run().catch(() => undefined)} aria-busy={busy}>
      新建
    </button>
  );
}

describe('useSingleFlight', () => {
  it('runs the action once for a double click, and again once it has finished', async () => {
    let finish = () => {};
    const create = jest.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    render(<CreateButton create={create} />);
    const button = screen.getByRole('button', { name: '新建' });
    // Both clicks land before React re-renders the button as busy.
    fireEvent.click(button);
    fireEvent.click(button);
    expect(create).toHaveBeenCalledTimes(1);
    expect(button.getAttribute('aria-busy')).toBe('true');
    await act(async () => finish());
    expect(button.getAttribute('aria-busy')).toBe('false');
    fireEvent.click(button);
    expect(create).toHaveBeenCalledTimes(2);
  });

  it('lets the action run again after it failed', async () => {
    const create = jest.fn(() => Promise.reject(new Error('失败')));
    render(<CreateButton create={create} />);
    const button = screen.getByRole('button', { name: '新建' });
    await act(async () => fireEvent.click(button));
    await act(async () => fireEvent.click(button));
    expect(create).toHaveBeenCalledTimes(2);
  });
});
