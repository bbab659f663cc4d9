import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '@kol/shared-sdk/router';
import { createRemoteApp } from '..';

const App = createRemoteApp(new Map([['/user', <p key="user">个人中心页</p>]]));

function renderAt(routePath: string) {
  render(
    <MemoryRouter initialEntries={['/here']}>
      <Routes>
        <Route path="/here" element={<App routePath={routePath} />} />
        <Route path="/" element={<p>首页</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('createRemoteApp', () => {
  it('renders the page of a claimed path', () => {
    renderAt('/user');
    expect(screen.getByText('个人中心页')).toBeTruthy();
  });

  it('answers 页面不存在 for any other path, with a way home', () => {
    renderAt('constructor');
    expect(screen.getByText('页面不存在')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /返回首页/ }));
    expect(screen.getByText('首页')).toBeTruthy();
  });
});
