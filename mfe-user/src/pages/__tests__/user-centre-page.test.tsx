import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { setSignOutHandler } from '@kol/shared-sdk';
import { currentUserAtom, usageLimitsAtom } from '@kol/shared-sdk/state';
import { demoLimits } from '../../testing/fixtures';
import { demoUser, fakeBackendPerTest, ok, renderWithHost } from '@kol/shared-sdk/testing';
import { UserCentrePage } from '../user-centre-page';

afterEach(() => setSignOutHandler(null));
const backend = fakeBackendPerTest();

describe('user centre page', () => {
  it('renders the profile from currentUserAtom, the quotas and log out', async () => {
    await backend.start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits()),
    });
    const user = demoUser({
      username: 'creator9',
      nickname: '九号',
      phone: '13700000009',
      avatar: 'https://cdn.example/a.png',
      homePageUrl: 'https://www.kuaishou.com/profile/9',
    });
    const { store } = renderWithHost(<UserCentrePage />, { user });

    expect(screen.getByRole('heading', { name: '个人中心' })).toBeInTheDocument();
    expect(screen.getByLabelText('用户名')).toHaveValue('creator9');
    expect(screen.getByLabelText('昵称')).toHaveValue('九号');
    expect(screen.getByLabelText('手机号')).toHaveValue('13700000009');
    expect(screen.getByRole('img', { name: '头像' })).toHaveAttribute(
      'src',
      'https://cdn.example/a.png',
    );
    expect(screen.getByLabelText('发布账号主页')).toHaveValue('https://www.kuaishou.com/profile/9');
    expect(screen.queryByText(/尚未填写发布账号主页/)).not.toBeInTheDocument();

    expect(await screen.findByText('真人短剧')).toBeInTheDocument();
    expect(store.get(usageLimitsAtom)).toEqual(demoLimits());

    const handler = jest.fn(async () => {
      store.set(currentUserAtom, null);
    });
    setSignOutHandler(handler);
    fireEvent.click(screen.getByRole('button', { name: /退出登录/ }));
    await waitFor(() => expect(handler).toHaveBeenCalledTimes(1));
  });
});
