import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { MemoryRouter, Route, Routes } from '@kol/shared-sdk/router';
import { demoUser } from '../../testing/fake-backend';
import { PostingAccountModal } from '../posting-account-modal';

function renderAt(path: string, homePageUrl: string) {
  const store = createStore();
  store.set(currentUserAtom, demoUser({ homePageUrl }));
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <PostingAccountModal />
        <Routes>
          <Route path="/user" element={<div>个人中心页</div>} />
          <Route path="*" element={null} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

describe('the posting-account prompt', () => {
  it('appears 20 ms after the page, not before, and cannot be closed but by 去填写', () => {
    renderAt('/video', '');
    act(() => jest.advanceTimersByTime(19));
    expect(screen.queryByText('友情提示')).toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByText('友情提示')).toBeInTheDocument();
    expect(screen.getByText('由于系统升级，请前往个人中心填写发布账号信息。')).toBeInTheDocument();
    expect(document.querySelector('.ant-modal-close')).toBeNull();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.getByText('友情提示')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /去\s*填\s*写/ }));
    act(() => jest.advanceTimersByTime(50));
    expect(screen.getByText('个人中心页')).toBeInTheDocument();
  });

  it.each(['/user', '/login', '/home', '/login/ticket', '/close'])(
    'never appears on %s',
    (path) => {
      renderAt(path, '');
      act(() => jest.advanceTimersByTime(100));
      expect(screen.queryByText('友情提示')).toBeNull();
    },
  );

  it('never appears once the posting account is filled in', () => {
    renderAt('/', 'https://example.com/me');
    act(() => jest.advanceTimersByTime(100));
    expect(screen.queryByText('友情提示')).toBeNull();
  });
});
