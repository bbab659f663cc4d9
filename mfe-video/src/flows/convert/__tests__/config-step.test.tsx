import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TemplateId, estimateNarrationMs, formatDurationMs } from '@kol/shared-sdk';
import { forgetServices } from '@kol/shared-sdk/ui';
import {
  demoUser,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { videoBackendPerTest, workRoutes } from '../../../testing/backend';
import { PROVIDER_VOICE, VOICES, demoLimits, demoWorkDetail } from '../../../testing/fixtures';
import { convertSession } from '../draft';
import { ConvertConfigStep } from '../steps/config-step';

// The browser's reading of a clip's length: jsdom loads no media, so here a clip's metadata
// "loads" as soon as its address is set, with the length the test says.
const probed = { ms: 3000 };
const src = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'src');
const duration = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'duration');
beforeAll(() => {
  URL.createObjectURL = () => 'blob:clip';
  URL.revokeObjectURL = () => undefined;
  Object.defineProperty(HTMLMediaElement.prototype, 'duration', {
    configurable: true,
    get: () => probed.ms / 1000,
  });
  Object.defineProperty(HTMLMediaElement.prototype, 'src', {
    configurable: true,
    get(this: HTMLMediaElement) {
      return this.getAttribute('src') ?? '';
    },
    set(this: HTMLMediaElement, value: string) {
      this.setAttribute('src', value);
      setTimeout(() => this.dispatchEvent(new Event('loadedmetadata')));
    },
  });
});
afterAll(() => {
  if (src) Object.defineProperty(HTMLMediaElement.prototype, 'src', src);
  if (duration) Object.defineProperty(HTMLMediaElement.prototype, 'duration', duration);
});

const backend = videoBackendPerTest();

beforeEach(() => {
  // Each test is a fresh installation: the text model is asked again.
  forgetServices();
  probed.ms = 3000;
});

const convertUser = (functionalLevel = 1) =>
  demoUser({ templateIds: [0, 1, TemplateId.convert], functionalLevel });

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainXiGaoCount: 2 })),
    'POST /api/file/upload_media': () =>
      ok(
        { url: '/uploads/src-1.mp4', assetId: 5, kind: 'video', durationMs: 4000, name: 'a' },
        200,
      ),
    'POST /api/video/convert_script': () =>
      ok({ script: '小猫晒太阳\n它睡着了', from: 'subtitles', engine: null, missing: null }),
    ...workRoutes({ work: demoWorkDetail(41, { type: 3 }) }),
    'POST /api/video/gen_video': () => ok({ taskId: 'task-41' }),
    ...overrides,
  });
}

const location = () => screen.getByTestId('location').textContent;
const MB = 1024 * 1024;

function fileOf(name: string, type: string, bytes = 2048): File {
  const file = new File([new Uint8Array(Math.min(bytes, 4096))], name, { type });
  if (bytes > 4096) Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

async function choose(file: File) {
  await act(async () => {
    fireEvent.change(screen.getByLabelText('选择原视频'), { target: { files: [file] } });
  });
}

describe('/convertConfig', () => {
  it('is closed to functional level 0, and to an account without the type', async () => {
    await start();
    const { unmount } = renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig',
      user: convertUser(0),
    });
    expect(screen.getByText('没有权限')).toBeVisible();
    expect(screen.queryByLabelText('选择原视频')).toBeNull();
    unmount();
    renderWithHost(<ConvertConfigStep />, { route: '/convertConfig', user: demoUser() });
    expect(screen.getByText('没有权限')).toBeVisible();
  });

  it('with no count left shows the back-guard instead of the form', async () => {
    await start({ 'GET /api/user/get_user_limit_info': () => ok(demoLimits()) });
    renderWithHost(<ConvertConfigStep />, { route: '/convertConfig', user: convertUser() });
    expect(await screen.findByText('反推视频的生成次数已用完')).toBeVisible();
    expect(screen.queryByLabelText('选择原视频')).toBeNull();
  });

  it('refuses a wrong kind, a file too large and a clip too long, naming each, sending nothing', async () => {
    const server = await start();
    renderWithHost(<ConvertConfigStep />, { route: '/convertConfig', user: convertUser() });
    expect(
      screen.getByText('MP4、MOV、WebM、MKV 视频，不超过 200 MB，时长不超过 10 分钟'),
    ).toBeVisible();

    await choose(fileOf('voice.mp3', 'audio/mpeg'));
    expect(
      await screen.findAllByText('「voice.mp3」不是支持的视频：请上传 MP4、MOV、WebM 或 MKV 视频'),
    ).not.toHaveLength(0);
    await choose(fileOf('big.mp4', 'video/mp4', 201 * MB));
    expect(
      await screen.findAllByText(
        '视频「big.mp4」有 201.0 MB，超过 200 MB 的上限，请剪短或压缩后再上传',
      ),
    ).not.toHaveLength(0);
    probed.ms = 11 * 60_000;
    await choose(fileOf('long.mp4', 'video/mp4'));
    expect(
      await screen.findAllByText(
        '视频「long.mp4」长 11.0 分钟，超过 10 分钟的上限，请剪短后再上传',
      ),
    ).not.toHaveLength(0);
    expect(server.calls('POST', '/api/file/upload_media')).toHaveLength(0);
  });

  it('uploads, reads the subtitles into the script, keeps the step on reload, renders with the presets', async () => {
    const server = await start();
    const { unmount } = renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig',
      user: convertUser(),
    });
    await choose(fileOf('cat.mp4', 'video/mp4'));
    expect(await screen.findByLabelText('原视频预览')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '下一步：文案与配音' }));
    await waitFor(() => expect(location()).toBe('/convertConfig?step=script'));
    unmount();

    // A reload on the script step: the step from the address, the script from the session.
    renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig?step=script',
      user: convertUser(),
    });
    const script = (await screen.findByLabelText('反推文案')) as HTMLTextAreaElement;
    expect(script.value).toBe('小猫晒太阳\n它睡着了');
    expect(screen.getByText('已从视频的字幕轨提取脚本')).toBeVisible();
    fireEvent.change(script, { target: { value: '小猫在晒太阳。\n它慢慢睡着了。' } });
    fireEvent.click(screen.getByRole('button', { name: '下一步：去重与生成' }));
    // The script is done: the work is made now and goes into the address.
    await waitFor(() => expect(location()).toBe('/convertConfig?step=render&workId=41'));
    const body = (path: string) => server.calls('POST', path)[0]?.body;
    expect(body('/api/video/save_text')).toEqual({
      type: 3,
      title: 'cat',
      text: '小猫在晒太阳。\n它慢慢睡着了。',
    });

    fireEvent.click(await screen.findByRole('checkbox', { name: '镜像' }));
    expect(convertSession.get('convertDraft')?.settings.dedup).toEqual({ mirror: true });
    fireEvent.click(await screen.findByRole('button', { name: /^生成视频/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/将消耗 1 次「反推视频」生成次数/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: '确认生成' }));
    await waitFor(() => expect(location()).toBe('/video/production?workId=41'));
    await settle();

    expect(body('/api/video/convert_script')).toEqual({ sourceVideoUrl: '/uploads/src-1.mp4' });
    // One work: the render updates it with what changed since.
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(1);
    expect(server.calls('POST', '/api/video/update_text').at(-1)?.body).toEqual({
      workId: 41,
      revision: 2,
      title: 'cat',
      text: '小猫在晒太阳。\n它慢慢睡着了。',
    });
    expect(server.calls('POST', '/api/video/save_video_info').at(-1)?.body).toEqual({
      workId: 41,
      revision: 3,
      settings: {
        aspect: '9:16',
        speed: 1,
        dedup: { mirror: true },
        sourceVideoUrl: '/uploads/src-1.mp4',
        // The voice list's first voice, chosen for the user once the list has come.
        voiceId: expect.any(String),
      },
    });
    expect(body('/api/video/gen_video')).toEqual({ workId: 41 });
  });

  it('shows the new video’s estimated length, following the script and the voice', async () => {
    await start({ 'GET /api/edit/tts_list': () => ok([...VOICES, PROVIDER_VOICE]) });
    renderWithHost(<ConvertConfigStep />, { route: '/convertConfig', user: convertUser() });
    await choose(fileOf('cat.mp4', 'video/mp4'));
    await screen.findByLabelText('原视频预览');
    // The source's own length says nothing: the footage is looped or cut to the new voice.
    expect(screen.queryByTestId('video-estimate')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '下一步：文案与配音' }));
    const script = await screen.findByLabelText('反推文案');
    const shown = (text: string, voiceId = 'espeak-cmn-f') =>
      `预计时长 约 ${formatDurationMs(estimateNarrationMs(text, { voiceId }))}`;
    const estimate = () => screen.getByTestId('video-estimate');
    expect(estimate()).toHaveTextContent(shown('小猫晒太阳\n它睡着了'));

    const rewrite = '午后的阳光洒在窗台上，小猫伸了个懒腰。\n它眯着眼睛，慢慢地睡着了。';
    fireEvent.change(script, { target: { value: rewrite } });
    expect(estimate()).toHaveTextContent(shown(rewrite));
    expect(shown(rewrite, PROVIDER_VOICE.voiceId)).not.toBe(shown(rewrite));
    fireEvent.mouseDown(screen.getByLabelText('配音音色'));
    fireEvent.click(await screen.findByTitle(PROVIDER_VOICE.name));
    expect(estimate()).toHaveTextContent(shown(rewrite, PROVIDER_VOICE.voiceId));

    fireEvent.change(script, { target: { value: '' } });
    expect(screen.queryByTestId('video-estimate')).not.toBeInTheDocument();
  });

  it('a new visit after a saved one starts over; the saved work opens again from the server in a fresh tab', async () => {
    const server = await start({
      'GET /api/video/work_info': () =>
        ok(
          demoWorkDetail(41, {
            type: 3,
            title: '猫咪',
            text: '保存过的文案。',
            settings: {
              aspect: '16:9',
              speed: 1.2,
              sourceVideoUrl: '/uploads/src-1.mp4',
              dedup: { mirror: true },
            },
          }),
        ),
    });
    // The session holds the work already saved: a visit without it is a new reverse video.
    convertSession.set('convertDraft', {
      workId: 41,
      title: '猫咪',
      source: { url: '/uploads/src-1.mp4', name: 'cat.mp4', durationMs: 4000 },
      extracted: null,
      script: '保存过的文案。',
      settings: { aspect: '16:9', speed: 1, dedup: {} },
    });
    const { unmount } = renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig',
      user: convertUser(),
    });
    expect(await screen.findByRole('button', { name: /上传原视频/ })).toBeInTheDocument();
    expect(screen.queryByLabelText('原视频预览')).toBeNull();
    expect(server.calls('GET', '/api/video/work_info')).toHaveLength(0);
    unmount();

    // A fresh tab (or the works list) with the work in the address reads it back.
    sessionStorage.clear();
    renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig?step=script&workId=41',
      user: convertUser(),
    });
    const script = (await screen.findByLabelText('反推文案')) as HTMLTextAreaElement;
    expect(script.value).toBe('保存过的文案。');
    expect(screen.getByRole('radio', { name: '横屏 16:9' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: '下一步：去重与生成' }));
    await waitFor(() => expect(location()).toBe('/convertConfig?step=render&workId=41'));
    expect(await screen.findByRole('checkbox', { name: '镜像' })).toBeChecked();
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(0);
    expect(server.calls('POST', '/api/video/update_text')[0]?.body).toEqual({
      workId: 41,
      revision: 1,
      title: '猫咪',
      text: '保存过的文案。',
    });
  });

  it('says a work in the address that is not a reverse video cannot be opened here', async () => {
    await start({
      'GET /api/video/work_info': () => ok(demoWorkDetail(9, { title: '漫剪' })),
    });
    renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig?workId=9',
      user: convertUser(),
    });
    expect(await screen.findByText('「漫剪」不是反推视频，不能在这里打开')).toBeVisible();
    expect(screen.getByRole('link', { name: '新建反推视频' })).toBeInTheDocument();
  });

  it('asks for a script when the video has none, keeping what was chosen', async () => {
    await start({
      'POST /api/video/convert_script': () =>
        ok({
          script: '',
          from: 'none',
          engine: null,
          missing: '该视频没有字幕轨，也未配置语音转写服务，请在「文案」中填写脚本',
        }),
    });
    renderWithHost(<ConvertConfigStep />, { route: '/convertConfig', user: convertUser() });
    await choose(fileOf('plain.mp4', 'video/mp4'));
    await screen.findByLabelText('原视频预览');
    fireEvent.click(screen.getByRole('button', { name: '下一步：文案与配音' }));
    expect(
      await screen.findByText('该视频没有字幕轨，也未配置语音转写服务，请在「文案」中填写脚本'),
    ).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: '下一步：去重与生成' }));
    expect(
      await screen.findByText('「文案」为空：请填写要配音的脚本，或从视频中提取'),
    ).toBeVisible();
    expect(location()).toBe('/convertConfig?step=script');
    expect(convertSession.get('convertDraft')?.source?.url).toBe('/uploads/src-1.mp4');
  });

  it('rewrites the script through the writing engine, naming it, and can undo; without a text model it says the local engine does it', async () => {
    const answers = ['改写后的文案。', '原来的文案。'];
    const asked: unknown[] = [];
    await start({
      'GET /api/video/services': () => ok({ text: null, pictures: null, voice: null }),
      'POST /api/writing/generate': ({ body }) => {
        asked.push(body);
        return ok({ taskId: 'w-1' });
      },
      'GET /api/writing/gen_result': () =>
        ok({
          taskId: 'w-1',
          state: 'succeeded',
          text: answers.shift() ?? '',
          engine: '本地写作',
          error: null,
        }),
    });
    convertSession.set('convertDraft', {
      workId: null,
      title: '',
      source: { url: '/uploads/src-1.mp4', name: 'cat.mp4', durationMs: 4000 },
      extracted: { script: '原来的文案。', from: 'subtitles', note: '已从视频的字幕轨提取脚本' },
      script: '原来的文案。',
      settings: { aspect: '9:16', speed: 1, dedup: {} },
    });
    renderWithHost(<ConvertConfigStep />, {
      route: '/convertConfig?step=script',
      user: convertUser(),
    });
    fireEvent.click(await screen.findByRole('button', { name: '改写文案' }));
    const script = screen.getByLabelText('反推文案') as HTMLTextAreaElement;
    await waitFor(() => expect(script.value).toBe('改写后的文案。'));
    expect(await screen.findByText('已由 本地写作 改写，可继续修改')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '撤销改写' }));
    expect(script.value).toBe('原来的文案。');
    // Said before the click, not only after it.
    expect(screen.getByTestId('rewrite-engine-note')).toHaveTextContent(
      '未配置文本模型：「改写文案」由本地引擎完成',
    );
    // The model's answer is bounded by the asked length: the script's own.
    expect(asked[0]).toMatchObject({ mode: 'rewrite', sourceText: '原来的文案。', length: 50 });
    // An answer that changes nothing is not called a rewrite, and offers no undo.
    fireEvent.click(screen.getByRole('button', { name: '改写文案' }));
    expect(
      await screen.findByText('本地写作 没有找到可以替换的词语，文案保持不变'),
    ).toBeInTheDocument();
    expect(script.value).toBe('原来的文案。');
    expect(screen.queryByRole('button', { name: '撤销改写' })).toBeNull();
  });

  it('a refused upload says why and keeps the clip there was', async () => {
    await start({
      'POST /api/file/upload_media': () => refuse(400, '文件内容与扩展名不符'),
    });
    renderWithHost(<ConvertConfigStep />, { route: '/convertConfig', user: convertUser() });
    await choose(fileOf('fake.mp4', 'video/mp4'));
    expect(await screen.findAllByText('原视频上传失败：文件内容与扩展名不符')).not.toHaveLength(0);
    expect(screen.queryByLabelText('原视频预览')).toBeNull();
  });
});
