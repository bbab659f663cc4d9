import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { currentUserAtom } from '@kol/shared-sdk/state';
import {
  demoUser,
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
} from '@kol/shared-sdk/testing';
import { PostingAccountForm } from '../components/posting-account-form';

const DOUYIN = 'https://www.douyin.com/user/MS4wLjABAAAA';

const backend = fakeBackendPerTest();

function renderForm(homePageUrl = '') {
  const user = demoUser({ homePageUrl });
  return { user, ...renderWithHost(<PostingAccountForm user={user} />, { user }) };
}

function typeUrl(value: string) {
  fireEvent.change(screen.getByLabelText('发布账号主页'), { target: { value } });
}

const save = () => fireEvent.click(screen.getByRole('button', { name: /保存发布账号/ }));

describe('posting account form', () => {
  it('explains what the posting account is and asks for it while it is empty', () => {
    renderForm();
    expect(screen.getByText(/发布作品所用平台.*创作者主页/)).toBeInTheDocument();
    expect(screen.getByText('尚未填写发布账号主页，请填写后保存。')).toBeInTheDocument();
  });

  it('saves homePageUrl and puts the answer in the atom, so the shell prompt stops', async () => {
    const user = demoUser({ homePageUrl: '' });
    const server = await backend.start({
      'POST /api/user/update_user_info': ({ body }) => ok({ ...user, ...(body as object) }),
    });
    const { store } = renderWithHost(<PostingAccountForm user={user} />, { user });

    typeUrl(DOUYIN);
    save();

    expect(await screen.findByText('发布账号已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/user/update_user_info').map((call) => call.body)).toEqual([
      { homePageUrl: DOUYIN },
    ]);
    expect(store.get(currentUserAtom)?.homePageUrl).toBe(DOUYIN);
  });

  it.each([
    ['www.douyin.com/user/abc', '请输入以 http:// 或 https:// 开头的有效网址'],
    ['ftp://example.com/me', '请输入以 http:// 或 https:// 开头的有效网址'],
    ['https://example.com/my page', '请输入以 http:// 或 https:// 开头的有效网址'],
    [`https://example.com/${'a'.repeat(500)}`, '网址不能超过 500 个字符'],
    ['', '请填写发布账号主页'],
  ])('refuses %j with a Chinese message and sends nothing', async (value, text) => {
    const server = await backend.start({});
    renderForm(DOUYIN);
    typeUrl(value);
    save();
    expect(await screen.findByText(text)).toBeInTheDocument();
    await settle();
    expect(server.seen).toHaveLength(0);
  });

  it('shows the server message and keeps the typed address', async () => {
    await backend.start({
      'POST /api/user/update_user_info': () => refuse(400, '发布账号主页 格式不正确', 400),
    });
    const { store, user } = renderForm();
    typeUrl(DOUYIN);
    save();
    expect(await screen.findByText('发布账号主页 格式不正确')).toBeInTheDocument();
    expect(screen.getByLabelText('发布账号主页')).toHaveValue(DOUYIN);
    expect(store.get(currentUserAtom)).toEqual(user);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /保存发布账号/ })).not.toHaveClass(
        'ant-btn-loading',
      ),
    );
  });
});
