import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { currentUserAtom } from '@kol/shared-sdk/state';
import type { UpdateUserInfoBody, UserInfo } from '@kol/shared-sdk';
import {
  demoUser,
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
} from '@kol/shared-sdk/testing';
import { ProfileForm } from '../components/profile-form';

const backend = fakeBackendPerTest();

/** A backend whose update_user_info answers the user merged with the body, as the server does. */
async function startUserBackend(user: UserInfo, delayMs?: number) {
  return backend.start({
    'POST /api/user/update_user_info': ({ body }) =>
      ok({ ...user, ...(body as UpdateUserInfoBody) }, delayMs),
  });
}

function renderProfile(user = demoUser()) {
  return renderWithHost(<ProfileForm user={user} />, { user });
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('profile form', () => {
  it('shows the username read-only and the nickname and phone to edit', () => {
    renderProfile(demoUser({ username: 'writer01', nickname: '阿文', phone: '13912345678' }));
    expect(screen.getByLabelText('用户名')).toHaveValue('writer01');
    expect(screen.getByLabelText('用户名')).toBeDisabled();
    expect(screen.getByLabelText('昵称')).toHaveValue('阿文');
    expect(screen.getByLabelText('手机号')).toHaveValue('13912345678');
  });

  it('saves nickname and phone with update_user_info and puts the answer in the atom', async () => {
    const user = demoUser();
    const server = await startUserBackend(user, 150);
    const { store } = renderProfile(user);

    type('昵称', '新昵称');
    type('手机号', '15000000001');
    fireEvent.click(screen.getByRole('button', { name: /保存资料/ }));

    await waitFor(() =>
      expect(screen.getByRole('button', { name: /保存资料/ })).toHaveClass('ant-btn-loading'),
    );
    expect(await screen.findByText('个人资料已保存')).toBeInTheDocument();
    const calls = server.calls('POST', '/api/user/update_user_info');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ nickname: '新昵称', phone: '15000000001' });
    expect(store.get(currentUserAtom)).toEqual({
      ...user,
      nickname: '新昵称',
      phone: '15000000001',
    });
    expect(screen.getByRole('button', { name: /保存资料/ })).not.toHaveClass('ant-btn-loading');
  });

  it('accepts an empty phone, as the server does', async () => {
    const server = await startUserBackend(demoUser());
    renderProfile();
    type('手机号', '');
    fireEvent.click(screen.getByRole('button', { name: /保存资料/ }));
    await waitFor(() => expect(server.calls('POST', '/api/user/update_user_info')).toHaveLength(1));
    expect(server.calls('POST', '/api/user/update_user_info')[0]?.body).toEqual({
      nickname: '小粉',
      phone: '',
    });
  });

  it.each([
    ['手机号', '2380000000', '请输入以 1 开头的 11 位手机号，或留空'],
    ['手机号', '1380000000x', '请输入以 1 开头的 11 位手机号，或留空'],
    ['手机号', '138000000001', '请输入以 1 开头的 11 位手机号，或留空'],
    ['昵称', '', '请输入昵称'],
    ['昵称', '   ', '请输入昵称'],
    ['昵称', '长'.repeat(33), '昵称不能超过 32 个字符'],
  ])('refuses %s %j with a Chinese message and sends nothing', async (label, value, text) => {
    const server = await startUserBackend(demoUser());
    renderProfile();
    type(label, value);
    fireEvent.click(screen.getByRole('button', { name: /保存资料/ }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    // Give a wrongly sent request the time to arrive.
    await settle();
    expect(server.seen).toHaveLength(0);
  });

  it('shows the server message and keeps what the user typed', async () => {
    await backend.start({
      'POST /api/user/update_user_info': () => refuse(1001, '昵称包含不允许的词'),
    });
    const user = demoUser();
    const { store } = renderProfile(user);
    type('昵称', '被拒的昵称');
    type('手机号', '15000000002');
    fireEvent.click(screen.getByRole('button', { name: /保存资料/ }));

    expect(await screen.findByText('昵称包含不允许的词')).toBeInTheDocument();
    expect(screen.getByLabelText('昵称')).toHaveValue('被拒的昵称');
    expect(screen.getByLabelText('手机号')).toHaveValue('15000000002');
    expect(store.get(currentUserAtom)).toEqual(user);
  });
});
