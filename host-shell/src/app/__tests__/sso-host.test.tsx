import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { currentUrl, renderApp } from '../../testing/render-app';
import { demoUser, startFakeBackend } from '../../testing/fake-backend';

let backend: Awaited<ReturnType<typeof startFakeBackend>>;

beforeAll(async () => {
  backend = await startFakeBackend();
});
afterAll(() => backend.close());
afterEach(() => {
  cleanup();
  backend.state.user = demoUser();
  backend.seen.length = 0;
});

const callsTo = (path: string) => backend.seen.filter((request) => request.path === path);

describe('on a single sign-on host', () => {
  // jsdom cannot leave for another origin; the calls and the absence of local redirects show
  // that the shell handed the user to the sign-on server.
  const sso = { config: { ssoHosts: ['localhost'] } };

  it('starts sign-on instead of going to /home when the user cannot be fetched', async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    backend.state.user = null;
    renderApp('/video', sso);
    await waitFor(() => expect(callsTo('/api/sso/login')).toHaveLength(1));
    expect(currentUrl()).toBe('/video');
    quiet.mockRestore();
  });

  it('signs out through sso/logout', async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/', sso);
    fireEvent.click(await screen.findByTestId('user-menu'));
    fireEvent.click(await screen.findByText('退出登录'));
    await waitFor(() => expect(callsTo('/api/sso/logout')).toHaveLength(1));
    expect(callsTo('/api/user/logout')).toHaveLength(0);
    quiet.mockRestore();
  });
});
