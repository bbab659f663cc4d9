import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '@kol/shared-sdk/router';
import { createRemoteApp, inPageLandmark } from '..';

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

describe('inPageLandmark', () => {
  it("puts a control's popup in the page's main, dialogs on the body and select lists in a region of the body", () => {
    document.body.innerHTML = `<header><button id="bell">通知</button></header>
      <main><button id="delete">删除</button><div class="ant-select"><span id="select">配音</span></div></main>`;
    const main = document.querySelector('main');
    expect(inPageLandmark(document.getElementById('delete') ?? undefined)).toBe(main);
    const lists = inPageLandmark(document.getElementById('select') ?? undefined);
    expect(lists.parentElement).toBe(document.body);
    expect(lists.getAttribute('role')).toBe('region');
    expect(lists.getAttribute('aria-label')).toBe('选项列表');
    // One region for every list.
    expect(inPageLandmark(document.getElementById('select') ?? undefined)).toBe(lists);
    expect(inPageLandmark(document.getElementById('bell') ?? undefined)).toBe(document.body);
    expect(inPageLandmark()).toBe(document.body);
  });
});
