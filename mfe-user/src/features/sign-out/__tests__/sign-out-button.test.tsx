import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ApiError, setSignOutHandler } from '@kol/shared-sdk';
import { renderWithHost } from '@kol/shared-sdk/testing';
import { SignOutButton } from '../components/sign-out-button';

afterEach(() => {
  setSignOutHandler(null);
});

describe('sign-out button', () => {
  it('calls the sign-out handler the host installed', async () => {
    const handler = jest.fn(async () => undefined);
    setSignOutHandler(handler);
    renderWithHost(<SignOutButton />);

    fireEvent.click(screen.getByRole('button', { name: /退出登录/ }));
    await waitFor(() => expect(handler).toHaveBeenCalledTimes(1));
  });

  it('shows why when signing out fails', async () => {
    setSignOutHandler(async () => {
      throw new ApiError('network', 'Network Error', null, null);
    });
    renderWithHost(<SignOutButton />);
    fireEvent.click(screen.getByRole('button', { name: /退出登录/ }));
    expect(await screen.findByText('Network Error')).toBeInTheDocument();
  });

  it('says so in Chinese when no handler is installed', async () => {
    renderWithHost(<SignOutButton />);
    fireEvent.click(screen.getByRole('button', { name: /退出登录/ }));
    expect(await screen.findByText('退出登录失败，请重试')).toBeInTheDocument();
  });
});
