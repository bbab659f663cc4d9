import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createQueryClient } from '@kol/shared-sdk/state';
import { ok, refuse, renderWithHost, type FakeRoutes } from '@kol/shared-sdk/testing';
import { voicesKey } from '../../../hooks/use-voices';
import { videoBackendPerTest, workRoutes } from '../../../testing/backend';
import { VOICES, demoWorkDetail } from '../../../testing/fixtures';
import { demoScene, storeDemoDraft } from '../../../testing/opera';
import { operaSession } from '../draft';
import { OperaCharacterStep } from '../steps/character-step';

const backend = videoBackendPerTest();

const ROUTE = '/video/operaCharacter?workId=31';

/** The two offline voices and a second female one, so a choice can differ from the default. */
const THREE_VOICES = [
  ...VOICES,
  {
    voiceId: 'espeak-cmn-f2',
    name: '普通话女声二',
    language: 'zh' as const,
    gender: 'female' as const,
    engine: 'espeak-ng（离线）',
    sampleUrl: '',
  },
];

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'GET /api/edit/tts_list': () => ok(THREE_VOICES),
    ...workRoutes({ work: demoWorkDetail(31, { type: 8 }) }),
    'POST /api/video/tts_audition': () => ok({ audioUrl: '/media/7/tts/a.wav', durationMs: 900 }),
    ...overrides,
  });
}

const character = (name: string) => screen.getByRole('group', { name: `角色 ${name}` });
const voiceOf = (name: string) =>
  within(character(name)).getByLabelText(`${name} 的配音`).closest('.ant-select');
const next = () => fireEvent.click(screen.getByRole('button', { name: '下一步：场景素材' }));
const location = () => screen.getByTestId('location').textContent;

/** Opens a character's voice list and picks a voice by its shown name. */
async function pickVoice(name: string, title: string) {
  fireEvent.mouseDown(within(character(name)).getByLabelText(`${name} 的配音`));
  fireEvent.click(await screen.findByTitle(title));
}

describe('/video/operaCharacter', () => {
  it('lists the script’s characters, each with a different voice to start with', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await screen.findByRole('group', { name: '角色 小明' });
    expect(screen.getAllByRole('group', { name: /^角色 / }).map((g) => g.ariaLabel)).toEqual([
      '角色 小明',
      '角色 小红',
    ]);
    // As the server assigns them: 小明's given name leans male (明), so a male voice; 小红, of
    // unknown gender, the other.
    await waitFor(() => expect(voiceOf('小明')).toHaveTextContent(/普通话男声/));
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声(?!二)/));
    // Plain names; which engine speaks them is said once for the page, not per role.
    expect(voiceOf('小明')).not.toHaveTextContent(/离线|espeak/);
    expect(
      screen.getAllByText(
        '当前语音由离线引擎 espeak-ng 合成，声音较机械；配置语音服务后可使用自然人声',
      ),
    ).toHaveLength(1);
    expect(operaSession.get('operaDraft')?.settings.roleVoices).toEqual({
      小明: 'espeak-cmn-m',
      小红: 'espeak-cmn-f',
    });
    expect(within(character('小明')).getByText('2 句台词，出场：')).toBeInTheDocument();
    expect(within(character('小红')).getByText('场景 1')).toBeInTheDocument();
  });

  it('shows who appears in which scene', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await screen.findByRole('group', { name: '角色 小明' });
    expect(screen.getByLabelText('小明 在场景 1 有 1 句')).toBeInTheDocument();
    expect(screen.getByLabelText('小明 在场景 2 有 1 句')).toBeInTheDocument();
    expect(screen.getByLabelText('小红 在场景 1 有 1 句')).toBeInTheDocument();
    expect(screen.getByLabelText('小红 不在场景 2')).toBeInTheDocument();
  });

  it('keeps a chosen voice across a reload, and auditions the character’s own line', async () => {
    const server = await start();
    storeDemoDraft();
    const first = renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声(?!二)/));
    await pickVoice('小红', '普通话女声二');
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声二/));
    fireEvent.click(screen.getByLabelText('试听 小红 的配音'));
    await waitFor(() => expect(server.calls('POST', '/api/video/tts_audition')).toHaveLength(1));
    expect(server.calls('POST', '/api/video/tts_audition')[0]?.body).toEqual({
      text: '好久不见。',
      voiceId: 'espeak-cmn-f2',
      speed: 1,
    });
    expect(await screen.findByLabelText('停止试听 小红 的配音')).toBeInTheDocument();
    first.unmount();

    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声二/));
    await waitFor(() => expect(voiceOf('小明')).toHaveTextContent(/普通话男声/));
  });

  it('says why an audition failed', async () => {
    await start({ 'POST /api/video/tts_audition': () => refuse(400, '「配音」不存在', 400) });
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await waitFor(() => expect(voiceOf('小明')).toHaveTextContent(/普通话男声/));
    fireEvent.click(screen.getByLabelText('试听 小明 的配音'));
    expect(await screen.findByText('试听失败：「配音」不存在')).toBeVisible();
  });

  it('renames a character in every line, keeping its voice', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await waitFor(() => expect(voiceOf('小明')).toHaveTextContent(/普通话男声/));
    const name = screen.getByLabelText('角色名 小明');
    fireEvent.change(name, { target: { value: '阿明' } });
    fireEvent.blur(name);
    await screen.findByRole('group', { name: '角色 阿明' });
    const draft = operaSession.get('operaDraft');
    expect(draft?.scenes.map((s) => s.lines.map((l) => l.speaker))).toEqual([
      ['阿明', '小红'],
      ['阿明'],
    ]);
    expect(draft?.settings.roleVoices).toEqual({ 阿明: 'espeak-cmn-m', 小红: 'espeak-cmn-f' });
  });

  it.each([
    ['', '请填写角色名'],
    ['小红', '已有角色「小红」，请换一个名字'],
    ['旁白：', '角色名不能含有冒号'],
  ])('refuses the name %j with a message, keeping what was typed', async (typed, problem) => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await screen.findByRole('group', { name: '角色 小明' });
    const name = screen.getByLabelText('角色名 小明');
    fireEvent.change(name, { target: { value: typed } });
    fireEvent.keyDown(name, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await within(character('小明')).findByRole('alert')).toHaveTextContent(problem);
    expect(name).toHaveValue(typed);
    expect(operaSession.get('operaDraft')?.scenes[0]?.lines[0]?.speaker).toBe('小明');
  });

  it('saves the voices (save_video_info) and the script, then opens the scenes', async () => {
    const server = await start();
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声(?!二)/));
    next();
    await waitFor(() => expect(location()).toBe('/video/operaScene?workId=31'));
    expect(server.calls('POST', '/api/video/update_text')[0]?.body).toEqual({
      workId: 31,
      revision: 1,
      text: '小明：你好。\n小红：好久不见。\n\n小明：我们走吧。',
    });
    // No scene has its clip or photo yet: the scenes are saved once they do.
    expect(server.calls('POST', '/api/video/save_video_info')[0]?.body).toEqual({
      workId: 31,
      revision: 2,
      settings: {
        aspect: '9:16',
        captionStyle: 'classic',
        speed: 1,
        roleVoices: { 小明: 'espeak-cmn-m', 小红: 'espeak-cmn-f' },
      },
    });
  });

  it('says why the server refused, staying on the page', async () => {
    await start({
      'POST /api/video/save_video_info': () => refuse(400, '「角色配音」格式不正确', 400),
    });
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声(?!二)/));
    next();
    expect(await screen.findByText('「角色配音」格式不正确')).toBeVisible();
    expect(location()).toBe(ROUTE);
  });

  it('with no characters yet, leads back to the script', async () => {
    await start();
    storeDemoDraft({ scenes: [demoScene('a', [['', '']])] });
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    expect(await screen.findByText('剧本里还没有角色')).toBeVisible();
    expect(screen.getByRole('link', { name: '去编写剧本台词' })).toHaveAttribute(
      'href',
      '/video/operaCaption?workId=31',
    );
    expect(screen.getByRole('button', { name: '下一步：场景素材' })).toBeDisabled();
  });

  it('gives each character a voice of their gender when the voices were already loaded', async () => {
    const server = await start();
    storeDemoDraft();
    // Another page of the flow read them: the pickers show them on their first render.
    const queryClient = createQueryClient();
    queryClient.setQueryData(voicesKey('zh'), THREE_VOICES);
    renderWithHost(<OperaCharacterStep />, { route: ROUTE, queryClient });
    await waitFor(() => expect(voiceOf('小明')).toHaveTextContent(/普通话男声/));
    await waitFor(() => expect(voiceOf('小红')).toHaveTextContent(/普通话女声(?!二)/));
    expect(operaSession.get('operaDraft')?.settings.roleVoices).toEqual({
      小明: 'espeak-cmn-m',
      小红: 'espeak-cmn-f',
    });
    expect(server.calls('GET', '/api/edit/tts_list')).toHaveLength(0);
  });

  it('says in Chinese when the voices cannot load', async () => {
    await start({ 'GET /api/edit/tts_list': () => refuse(500, '语音服务不可用') });
    storeDemoDraft();
    renderWithHost(<OperaCharacterStep />, { route: ROUTE });
    expect((await screen.findAllByText('配音音色加载失败：语音服务不可用')).length).toBeGreaterThan(
      0,
    );
  });
});
