import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { sessionStore, type AsyncSpeechResult } from '@kol/shared-sdk';
import {
  ok,
  refuse,
  renderWithHost,
  settle,
  workSummary,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { videoBackendPerTest } from '../../testing/backend';
import { TtsPage } from '../tts-page';

const backend = videoBackendPerTest();

function speechResult(overrides: Partial<AsyncSpeechResult> = {}): AsyncSpeechResult {
  return {
    taskId: 'speech-1',
    state: 'running',
    voiceId: 'espeak-cmn-f',
    audioUrl: '',
    wavUrl: '',
    durationMs: 0,
    engine: '',
    note: '',
    error: null,
    acknowledged: false,
    ...overrides,
  };
}

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'POST /api/edit/tts_try': () =>
      ok({
        audioUrl: '/media/7/tts/a.wav',
        mp3Url: '/media/7/tts/a.mp3',
        durationMs: 2400,
        engine: 'espeak-ng（离线）',
      }),
    ...overrides,
  });
}

const text = () => screen.getByLabelText('要合成的文本');
const synthesise = () => fireEvent.click(screen.getByText('合成语音'));

describe('/tts', () => {
  it('speaks a short text at once (tts_try) with the voice and speed, to play and download as MP3 and WAV', async () => {
    const server = await start();
    renderWithHost(<TtsPage />, { route: '/tts', user: null });
    fireEvent.change(text(), { target: { value: '你好，欢迎收听。' } });
    await screen.findByText(/普通话女声/);
    synthesise();
    const player = await screen.findByLabelText('合成结果');
    expect(player).toHaveAttribute('src', `${backend.current.origin}/media/7/tts/a.wav`);
    expect(screen.getByText('下载 WAV').closest('a')).toHaveAttribute('download', '配音.wav');
    expect(screen.getByText('下载 WAV').closest('a')).toHaveAttribute(
      'href',
      `${backend.current.origin}/media/7/tts/a.wav`,
    );
    // The same downloads as a long speech's: the MP3 too.
    expect(screen.getByText('下载 MP3').closest('a')).toHaveAttribute('download', '配音.mp3');
    expect(screen.getByText('下载 MP3').closest('a')).toHaveAttribute(
      'href',
      `${backend.current.origin}/media/7/tts/a.mp3`,
    );
    // The voice by its plain name, the engine once in plain words: no engine label.
    expect(await screen.findByText('时长 2秒 · 普通话女声 · 离线合成')).toBeInTheDocument();
    expect(screen.getByLabelText('合成信息')).not.toHaveTextContent('espeak');
    expect(server.calls('POST', '/api/edit/tts_try')[0]?.body).toEqual({
      text: '你好，欢迎收听。',
      voiceId: 'espeak-cmn-f',
      speed: 1,
    });
  });

  it('says when the offline voice stood in for a service voice that failed', async () => {
    await start({
      'POST /api/edit/tts_try': () =>
        ok({
          audioUrl: '/media/7/tts/b.wav',
          mp3Url: '/media/7/tts/b.mp3',
          durationMs: 1200,
          engine: 'espeak-ng（离线）',
          note: '语音服务出错；已改用离线音色「普通话女声」朗读',
        }),
    });
    renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value: '你好。' } });
    await screen.findByText(/普通话女声/);
    synthesise();
    expect(
      await screen.findByText('语音服务出错；已改用离线音色「普通话女声」朗读'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByLabelText('合成信息')).toHaveTextContent('普通话女声 · 离线合成'),
    );
  });

  it('auditions the voice with the text’s first words', async () => {
    const server = await start();
    renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value: '山门很旧。' } });
    await screen.findByText(/普通话女声/);
    fireEvent.click(screen.getByLabelText('试听配音'));
    await waitFor(() => expect(server.calls('POST', '/api/edit/tts_try')).toHaveLength(1));
    expect(server.calls('POST', '/api/edit/tts_try')[0]?.body).toMatchObject({
      text: '山门很旧。',
    });
  });

  it('speaks a long text as a task (async_tts_try), following it even across a reload', async () => {
    let polls = 0;
    const server = await start({
      'POST /api/edit/async_tts_try': () => ok({ taskId: 'speech-1' }),
      'GET /api/edit/async_tts_try_result': () => {
        polls += 1;
        return ok(
          polls < 2
            ? speechResult()
            : speechResult({
                state: 'succeeded',
                audioUrl: '/media/7/speech-1/speech.mp3',
                wavUrl: '/media/7/speech-1/speech.wav',
                durationMs: 95_000,
                // The task's own voice, not the picker's first: named from the task.
                voiceId: 'espeak-cmn-m',
                engine: 'espeak-ng（离线）',
              }),
        );
      },
    });
    const long = '很长的一段文字。'.repeat(50);
    const first = renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value: long } });
    await screen.findByText(/普通话女声/);
    synthesise();
    expect(await screen.findByLabelText('合成进度')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/tts?taskId=speech-1'),
    );
    expect(server.calls('POST', '/api/edit/async_tts_try')[0]?.body).toMatchObject({ text: long });
    first.unmount();

    // A reload: the text is remembered and the task is followed from the address.
    renderWithHost(<TtsPage />, { route: '/tts?taskId=speech-1' });
    expect(text()).toHaveValue(long);
    expect(await screen.findByText('下载 MP3', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('下载 WAV').closest('a')).toHaveAttribute(
      'href',
      `${backend.current.origin}/media/7/speech-1/speech.wav`,
    );
    expect(await screen.findByText('时长 1分35秒 · 普通话男声 · 离线合成')).toBeInTheDocument();
    expect(sessionStore.get('ttsContent')).toBe(long);
  });

  it('says why a task failed and acknowledges it (update_tts_try_failed)', async () => {
    let acknowledged = false;
    const server = await start({
      'GET /api/edit/async_tts_try_result': () =>
        ok(speechResult({ state: 'failed', error: '「配音」阶段失败：系统内部错误，请稍后重试' })),
      'GET /api/edit/tts_list/update_tts_try_failed': () => {
        acknowledged = true;
        return ok(null);
      },
    });
    renderWithHost(<TtsPage />, { route: '/tts?taskId=speech-1' });
    expect(
      await screen.findByText('合成失败：「配音」阶段失败：系统内部错误，请稍后重试'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByText('知道了'));
    await waitFor(() => expect(acknowledged).toBe(true));
    expect(server.calls('GET', '/api/edit/tts_list/update_tts_try_failed')[0]?.query).toEqual({
      taskId: 'speech-1',
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/tts$/));
  });

  it('says beside the disabled button why it cannot speak yet, from the first visit', async () => {
    const server = await start();
    renderWithHost(<TtsPage />, { route: '/tts' });
    await screen.findByText(/普通话女声/);
    const button = screen.getByRole('button', { name: /合成语音/ });
    expect(button).toBeDisabled();
    // The reason is on the page, not only after a click, and names what to do.
    expect(screen.getByText('请先输入要转换的文字')).toBeVisible();
    expect(button).toHaveAccessibleDescription('请先输入要转换的文字');
    synthesise();
    await settle();
    expect(server.calls('POST', '/api/edit/tts_try')).toHaveLength(0);
    fireEvent.change(text(), { target: { value: '你好。' } });
    expect(button).toBeEnabled();
    expect(screen.queryByText('请先输入要转换的文字')).toBeNull();
  });

  it.each([
    ['   ', '请先输入要转换的文字'],
    ['……', '文本中没有可朗读的文字'],
  ])('refuses %j in Chinese beside the button and sends nothing', async (value, problem) => {
    const server = await start();
    renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value } });
    await screen.findByText(/普通话女声/);
    expect(screen.getByRole('button', { name: /合成语音/ })).toHaveAccessibleDescription(problem);
    synthesise();
    await settle();
    expect(server.calls('POST', '/api/edit/tts_try')).toHaveLength(0);
  });

  it('refuses a text over 100000 characters', async () => {
    await start();
    renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value: '字'.repeat(100_001) } });
    await screen.findByText(/普通话女声/);
    expect(await screen.findByText('文本不能超过 100000 字（当前 100001 字）')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /合成语音/ })).toBeDisabled();
  });

  it('shows the server’s refusal and keeps the text', async () => {
    await start({ 'POST /api/edit/tts_try': () => refuse(400, '「配音」不存在', 400) });
    renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value: '你好。' } });
    await screen.findByText(/普通话女声/);
    synthesise();
    expect(await screen.findByText('「配音」不存在')).toBeInTheDocument();
    expect(text()).toHaveValue('你好。');
  });

  it('offers the English voices for an English text', async () => {
    const server = await start();
    renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.click(screen.getByText('英文'));
    expect(await screen.findByText(/English female/)).toBeInTheDocument();
    expect(server.calls('GET', '/api/edit/tts_list').at(-1)?.query).toEqual({ language: 'en' });
  });

  it('says in Chinese when a long text is refused, or its task cannot be followed', async () => {
    await start({
      'POST /api/edit/async_tts_try': () => refuse(400, '「配音」不存在', 400),
      'GET /api/edit/async_tts_try_result': () => refuse(404, '配音任务不存在', 404),
    });
    const first = renderWithHost(<TtsPage />, { route: '/tts' });
    fireEvent.change(text(), { target: { value: '长文本。'.repeat(100) } });
    await screen.findByText(/普通话女声/);
    synthesise();
    expect(await screen.findByText('「配音」不存在')).toBeInTheDocument();
    first.unmount();
    renderWithHost(<TtsPage />, { route: '/tts?taskId=gone' });
    expect(await screen.findByText('合成进度获取失败：配音任务不存在')).toBeInTheDocument();
  });

  it('says in Chinese when acknowledging a failed task fails', async () => {
    await start({
      'GET /api/edit/async_tts_try_result': () =>
        ok(speechResult({ state: 'failed', error: '语音合成失败' })),
      'GET /api/edit/tts_list/update_tts_try_failed': () =>
        refuse(409, '该配音任务没有失败，无需确认', 409),
    });
    renderWithHost(<TtsPage />, { route: '/tts?taskId=speech-1' });
    fireEvent.click(await screen.findByText('知道了'));
    expect(await screen.findByText('该配音任务没有失败，无需确认')).toBeInTheDocument();
  });

  it('applies the chosen voice and speed to a work (tts_apply), the works read only when the list opens', async () => {
    const server = await start({
      'GET /api/video/get_works': () =>
        ok({
          items: [workSummary(5, { title: '雾港邮差' }), workSummary(6, { title: '', type: 4 })],
          total: 2,
        }),
      'POST /api/edit/tts_apply': (request) =>
        (request.body as { workId: number }).workId === 6
          ? refuse(404, '作品不存在', 404)
          : ok(null),
    });
    renderWithHost(<TtsPage />, { route: '/tts' });
    await screen.findByText(/普通话女声/);
    await settle();
    expect(server.calls('GET', '/api/video/get_works')).toHaveLength(0);
    const apply = screen.getByRole('button', { name: '应用' });
    expect(apply).toBeDisabled();

    fireEvent.mouseDown(screen.getByLabelText('要应用配音的作品'));
    fireEvent.click(await screen.findByText('雾港邮差（漫剪视频）'));
    expect(server.calls('GET', '/api/video/get_works')[0]?.query).toEqual({
      pageIndex: '1',
      pageSize: '100',
    });
    fireEvent.click(apply);
    expect(
      await screen.findByText(
        '已将「普通话女声」（1.0×）应用到《雾港邮差》，下次生成它的视频时使用',
      ),
    ).toBeInTheDocument();
    expect(server.calls('POST', '/api/edit/tts_apply')[0]?.body).toEqual({
      workId: 5,
      voiceId: 'espeak-cmn-f',
      speed: 1,
    });

    // A refusal names the work and says why.
    fireEvent.mouseDown(screen.getByLabelText('要应用配音的作品'));
    fireEvent.click(await screen.findByText(/^未命名作品（/));
    fireEvent.click(apply);
    expect(await screen.findByText('应用到《》失败：作品不存在')).toBeInTheDocument();
  });
});
