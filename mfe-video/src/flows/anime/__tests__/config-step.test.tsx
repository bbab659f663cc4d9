import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeBackendPerTest, ok, renderWithHost } from '@kol/shared-sdk/testing';
import { estimateDialogueMs, formatDurationMs } from '@kol/shared-sdk';
import { animeBackend, animeUser } from '../../../testing/anime';
import { demoLimits } from '../../../testing/fixtures';
import { AnimeConfigStep } from '../steps/config-step';

const backend = fakeBackendPerTest();

const ROUTE = '/video/animeConfig?videoType=11&workId=31';
const render = () => renderWithHost(<AnimeConfigStep />, { route: ROUTE, user: animeUser() });
/**
 * Whether a radio is the chosen one, by antd's mark on its label: in jsdom every antd radio
 * group gets the same input name, so a radio's own `checked` is unchecked by another group's.
 */
const chosen = (label: string) =>
  /-wrapper-checked/.test(screen.getByLabelText(label).closest('label')?.className ?? '');

describe('/video/animeConfig', () => {
  it('gives every character a voice of their own and the narrator the work’s voice, saved onto the work', async () => {
    const { routes, state } = animeBackend();
    await backend.start(routes);
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

  it('shows the short’s estimated length, following each speaker’s voice and the speed', async () => {
    const script = [
      { speaker: '旁白', text: '夜里，林舟走进客栈。' },
      { speaker: '林舟', text: '掌柜，还有房吗？' },
      {
        speaker: '掌柜',
        text: '只剩一间了，在楼上最里头，窗子朝着后山，夜里风大，客官要是不嫌弃就先住下吧。',
      },
    ];
    const { routes, state } = animeBackend({
      text: script.map((line) => `${line.speaker}：${line.text}`).join('\n'),
    });
    await backend.start(routes);
    render();
    await screen.findByLabelText('掌柜的配音');
    /** The script spoken with these voices at this speed, as the server assigns them. */
    const shown = (voices: Record<string, string | undefined>, speed = 1) => {
      const lines = script.map((line) => ({ ...line, voiceId: voices[line.speaker] ?? null }));
      return `预计时长 约 ${formatDurationMs(estimateDialogueMs(lines, { speed }))}`;
    };
    // Every character starts with a default voice, saved onto the work; the narrator the first.
    await waitFor(() => expect(Object.keys(state.work.settings.roleVoices ?? {})).toHaveLength(2));
    const defaults = { 旁白: 'espeak-cmn-f', ...state.work.settings.roleVoices };
    const estimate = () => screen.getByTestId('video-estimate');
    expect(estimate()).toHaveTextContent(shown(defaults));

    // 林舟 on the narrator's voice too: a speaker after him on it is spoken at another speed.
    const shared = { ...defaults, 林舟: 'espeak-cmn-f' };
    fireEvent.mouseDown(screen.getByLabelText('林舟的配音'));
    // The option of the open list (the chosen voices show their names as titles too).
    const options = await screen.findAllByTitle('普通话女声');
    const option = options.find((element) => element.classList.contains('ant-select-item-option'));
    if (!option) throw new Error('no 普通话女声 in the open list');
    fireEvent.click(option);
    await waitFor(() => expect(state.work.settings.roleVoices?.林舟).toBe('espeak-cmn-f'));
    expect(shown(shared)).not.toBe(shown(defaults));
    expect(estimate()).toHaveTextContent(shown(shared));

    fireEvent.keyDown(screen.getByRole('slider', { name: '语速' }), { key: 'Home', keyCode: 36 });
    expect(estimate()).toHaveTextContent(shown(shared, 0.5));
  });

  it('moves the shots by default where a video service is configured, saving a turn-off', async () => {
    const { routes, state } = animeBackend();
    await backend.start({
      ...routes,
      'GET /api/video/services': () =>
        ok({ text: null, pictures: 'gpt-image-1', voice: null, clips: 'sora-2（api.openai.com）' }),
    });
    render();
    const motion = await screen.findByRole('switch', { name: '动态镜头' });
    expect(motion).toBeChecked();
    expect(
      screen.getByText(/由 sora-2（api.openai.com） 把每个分镜的画面生成为动态视频/),
    ).toBeInTheDocument();
    fireEvent.click(motion);
    await waitFor(() => expect(state.work.settings.motion).toBe(false));
  });

  it('offers no motion switch without a video service', async () => {
    const { routes } = animeBackend();
    await backend.start(routes);
    render();
    await screen.findByLabelText('林舟的配音');
    expect(screen.queryByRole('switch', { name: '动态镜头' })).not.toBeInTheDocument();
  });

  it('auditions each character with their own first line', async () => {
    const { routes } = animeBackend(
      { settings: { aspect: '9:16', speed: 1.2 } },
      {
        'POST /api/video/tts_audition': () =>
          ok({ audioUrl: '/media/7/tts/a.wav', durationMs: 900 }),
      },
    );
    const server = await backend.start(routes);
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
    await backend.start(routes);
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
    await backend.start(routes);
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
    await backend.start(routes);
    render();
    expect(await screen.findByText('AI漫剧的生成次数已用完')).toBeInTheDocument();
    expect(screen.queryByLabelText('林舟的配音')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '返回上一页' }));
  });
});
