import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useNavigate } from '@kol/shared-sdk/router';
import { ScrollToTop } from '../scroll-to-top';

function Moves() {
  const navigate = useNavigate();
  return (
    <>
      <button onClick={() => navigate('/video/caption?workId=1')}>下一步</button>
      <button onClick={() => navigate('/convertConfig?step=script')}>下一步骤</button>
      <button onClick={() => navigate('/convertConfig?step=script&workId=9', { replace: true })}>
        记下作品
      </button>
      <button onClick={() => navigate(-1)}>返回</button>
    </>
  );
}

describe('ScrollToTop', () => {
  const scrollTo = jest.fn();
  beforeEach(() => {
    scrollTo.mockClear();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  });

  it('opens a new page or step at the top, and leaves replaced addresses and going back alone', () => {
    render(
      <MemoryRouter initialEntries={['/video/config']}>
        <ScrollToTop />
        <Moves />
      </MemoryRouter>,
    );
    scrollTo.mockClear();
    fireEvent.click(screen.getByText('下一步'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);

    scrollTo.mockClear();
    fireEvent.click(screen.getByText('下一步骤'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);

    scrollTo.mockClear();
    fireEvent.click(screen.getByText('记下作品'));
    expect(scrollTo).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText('返回'));
    expect(scrollTo).not.toHaveBeenCalled();
  });
});
