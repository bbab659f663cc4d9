import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ok, renderWithHost, startFakeBackend, type FakeBackend } from '@kol/shared-sdk/testing';
import { animeBackend, animeUser } from '../../testing/anime';
import { demoLimits } from '../../testing/fixtures';
import { AnimeConfigPage } from '../anime-config-page';

let backend: FakeBackend | undefined;

beforeEach(() => sessionStorage.clear());
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

const ROUTE = '/video/animeConfig?videoType=11&workId=31';
const render = () => renderWithHost(<AnimeConfigPage />, { route: ROUTE, user: animeUser() });
/**
 * Whether a radio is the chosen one, by antd's mark on its label: in jsdom every antd radio
 * group gets the same input name, so a radio's own `checked` is unchecked by another group's.
 */
const chosen = (label: string) =>
  /-wrapper-checked/.test(screen.getByLabelText(label).closest('label')?.className ?? '');

describe('/video/animeConfig', () => {
  it('gives every character a voice of their own and the narrator the work’s voice, saved onto the work', async () => {
    const { routes, state } = animeBackend();
    backend = await startFakeBackend(routes);
    render();
    expect(await screen.findByLabelText('林舟的配音')).toBeInTheDocument();
    expect(screen.getByLabelText('掌柜的配音')).toBeInTheDocument();
    // Distinct voices by default: the narrator the first, the characters the next ones.
    await waitFor(() =>
      expect(state.work.settings).toMatchObject({
        voiceId: 'espeak-cmn-f',
        roleVoices: { 林舟: 'espeak-cmn-m', 掌柜: 'espeak-cmn-f' },
      }),
    );
  });

  it('auditions each character with their own first line', async () => {
    const { routes } = animeBackend(
      { settings: { aspect: '9:16', speed: 1.2 } },
      {
        'POST /api/video/tts_audition': () =>
          ok({ audioUrl: '/media/7/tts/a.wav', durationMs: 900 }),
      },
    );
    backend = await startFakeBackend(routes);
    const server = backend;
    render();
    await screen.findByLabelText('林舟的配音');
    // The picker shows its voice once the list is in and the default is chosen.
    await within(screen.getByRole('group', { name: '角色 林舟' })).findByText(/普通话男声/);
    expect(screen.getByRole('button', { name: '试听林舟' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: '试听林舟' }));
    await waitFor(() => expect(server.calls('POST', '/api/video/tts_audition')).toHaveLength(1));
    expect(server.calls('POST', '/api/video/tts_audition')[0]?.body).toEqual({
      text: '掌柜，还有房吗？',
      voiceId: 'espeak-cmn-m',
      speed: 1.2,
    });
  });

  it('keeps every choice over a reload: it is saved onto the work as it is made', async () => {
    const { routes, state } = animeBackend();
    backend = await startFakeBackend(routes);
    const first = render();
    await screen.findByLabelText('林舟的配音');
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    fireEvent.click(await screen.findByLabelText('国风水墨'));
    fireEvent.click(screen.getByLabelText('黄色字幕'));
    await waitFor(() =>
      expect(state.work.settings).toMatchObject({
        aspect: '16:9',
        imageStyleId: 2,
        captionStyle: 'yellow',
      }),
    );
    first.unmount();
    render();
    await screen.findByLabelText('横屏 16:9');
    await waitFor(() => {
      expect(chosen('横屏 16:9')).toBe(true);
      expect(chosen('黄色字幕')).toBe(true);
      expect(chosen('国风水墨')).toBe(true);
    });
  });

  it('goes to the roles once saved', async () => {
    const { routes } = animeBackend();
    backend = await startFakeBackend(routes);
    render();
    await screen.findByLabelText('林舟的配音');
    fireEvent.click(screen.getByRole('button', { name: '下一步：角色' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/video/animeCharacter?videoType=11&workId=31',
      ),
    );
  });

  it('blocks the page when the type has no count left (the spec’s back-guard)', async () => {
    const { routes } = animeBackend(
      {},
      {
        'GET /api/user/get_user_limit_info': () =>
          ok(demoLimits({ remainGenCount: 0, remainRewardsGenerateCount: 0 })),
      },
    );
    backend = await startFakeBackend(routes);
    render();
    expect(await screen.findByText('AI漫剧的生成次数已用完')).toBeInTheDocument();
    expect(screen.queryByLabelText('林舟的配音')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '返回上一页' }));
  });
});
