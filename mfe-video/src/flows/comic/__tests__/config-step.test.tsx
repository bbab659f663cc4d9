import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useNavigate } from '@kol/shared-sdk/router';
import { sessionStore } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import {
  demoUser,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import {
  changeWork,
  videoBackendPerTest,
  workRoutes,
  type WorkState,
} from '../../../testing/backend';
import { demoLimits, demoWork, demoWorkDetail, page } from '../../../testing/fixtures';
import { ComicConfigStep } from '../steps/config-step';

const backend = videoBackendPerTest();

/** Work 21 as the server holds it: made by save_text, saved over on its newest revision. */
let held: WorkState;

async function start(overrides: FakeRoutes = {}) {
  held = { work: demoWorkDetail(21) };
  return backend.start({
    ...workRoutes(held),
    'POST /api/video/tts_audition': () => ok({ audioUrl: '/media/7/tts/a.wav', durationMs: 900 }),
    ...overrides,
  });
}

const textArea = () => screen.getByLabelText('视频文案');
const next = () => fireEvent.click(screen.getByText('下一步：分镜字幕'));
const location = () => screen.getByTestId('location').textContent;

describe('/video/config', () => {
  it('takes the text handed over by 发送到视频 / 用于视频 (KOL_VIDEO_CONTENT)', async () => {
    await start();
    sessionStore.set('videoContent', '林动走进山门。山门很旧。');
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    expect(textArea()).toHaveValue('林动走进山门。山门很旧。');
    expect(screen.getByText(/已带入文案（来自「发送到视频」「用于视频」/)).toBeVisible();
    expect(await screen.findByLabelText('日系动漫')).toBeInTheDocument();
  });

  it("takes 发送到视频's text and title (KOL_VIDEO_HANDOVER) over the remembered text, once", async () => {
    const server = await start();
    sessionStore.set('videoContent', '上次没写完的文案。');
    sessionStore.set('videoHandover', {
      type: 0,
      text: '深夜，旧飞船醒了。少年睁开眼。',
      title: '星河旧梦 第一章 醒来',
    });
    const view = renderWithHost(<ComicConfigStep />, { route: '/video/config?videoType=0' });
    expect(textArea()).toHaveValue('深夜，旧飞船醒了。少年睁开眼。');
    expect(screen.getByLabelText('作品标题')).toHaveValue('星河旧梦 第一章 醒来');
    expect(screen.getByText(/已带入文案（来自「发送到视频」/)).toBeVisible();
    // Taken once: the clip's own value holds the text now, the handover is gone.
    await waitFor(() => expect(sessionStore.get('videoHandover')).toBeNull());
    expect(sessionStore.get('videoContent')).toBe('深夜，旧飞船醒了。少年睁开眼。');
    next();
    await waitFor(() => expect(location()).toBe('/video/caption?videoType=0&workId=21'));
    expect(server.calls('POST', '/api/video/save_text').map((call) => call.body)).toEqual([
      { type: 0, title: '星河旧梦 第一章 醒来', text: '深夜，旧飞船醒了。少年睁开眼。' },
    ]);
    view.unmount();
  });

  it('leaves a text handed to another type alone', async () => {
    await start();
    sessionStore.set('videoHandover', { type: 11, text: '给漫剧的故事。', title: '漫剧' });
    renderWithHost(<ComicConfigStep />, { route: '/video/config?videoType=0' });
    expect(textArea()).toHaveValue('');
    expect(screen.getByLabelText('作品标题')).toHaveValue('');
    await settle();
    expect(sessionStore.get('videoHandover')).not.toBeNull();
  });

  it('saves the work with its settings (save_text, save_video_info), then opens the captions', async () => {
    const server = await start();
    renderWithHost(<ComicConfigStep />, { route: '/video/config?videoType=0' });
    fireEvent.change(textArea(), { target: { value: '从前有座山。山里有座庙。' } });
    fireEvent.change(screen.getByLabelText('作品标题'), {
      target: { value: '山中小记' },
    });
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    fireEvent.click(await screen.findByLabelText('国风水墨'));
    fireEvent.click(screen.getByLabelText('底框字幕'));
    fireEvent.click(await screen.findByLabelText(/^夜行/));
    await screen.findByText(/普通话女声/);

    next();

    await waitFor(() => expect(location()).toBe('/video/caption?videoType=0&workId=21'));
    expect(server.calls('POST', '/api/video/save_text').map((call) => call.body)).toEqual([
      { type: 0, title: '山中小记', text: '从前有座山。山里有座庙。' },
    ]);
    expect(server.calls('POST', '/api/video/save_video_info').map((call) => call.body)).toEqual([
      {
        workId: 21,
        revision: 1,
        settings: {
          aspect: '16:9',
          speed: 1,
          captionStyle: 'box',
          voiceId: 'espeak-cmn-f',
          musicId: -2,
          imageStyleId: 2,
        },
      },
    ]);
  });

  it('saves over the work in the address on the revision read on arrival, a change made since merged in', async () => {
    const server = await start();
    held.work = { ...held.work, title: '山中小记', text: '从前有座山。', revision: 4 };
    sessionStore.set('videoContent', '从前有座山。山里有座庙。');
    renderWithHost(<ComicConfigStep />, { route: '/video/config?videoType=0&workId=21' });
    await waitFor(() => expect(screen.getByLabelText('作品标题')).toHaveValue('山中小记'));
    await screen.findByText(/普通话女声/);
    // Another tab chose the music meanwhile.
    changeWork(held, (work) => ({ settings: { ...work.settings, musicId: -1 } }));
    next();
    await waitFor(() => expect(location()).toBe('/video/caption?videoType=0&workId=21'));
    expect(
      server
        .calls('POST', '/api/video/save_text')
        .map((call) => (call.body as { revision?: number }).revision),
    ).toEqual([4, 5]);
    // Read on arrival and for the merge, never just before saving.
    expect(server.calls('GET', '/api/video/work_info')).toHaveLength(2);
    expect(held.work.text).toBe('从前有座山。山里有座庙。');
    expect(held.work.settings.musicId).toBe(-1);
  });

  it('keeps every choice in the session, so a reload shows them again', async () => {
    await start();
    const first = renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.change(textArea(), { target: { value: '雨下着。' } });
    fireEvent.click(screen.getByLabelText('黄色字幕'));
    fireEvent.click(await screen.findByLabelText('日系动漫'));
    first.unmount();

    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    expect(textArea()).toHaveValue('雨下着。');
    expect(screen.getByLabelText('黄色字幕')).toBeChecked();
    expect(await screen.findByLabelText('日系动漫')).toBeChecked();
    expect(sessionStorage.getItem('KOL_VIDEO_STYLE')).toBe('1');
    expect(JSON.parse(sessionStorage.getItem('KOL_VIDEO_CONFIG') ?? '{}')).toMatchObject({
      captionStyle: 'yellow',
    });
  });

  it.each([
    ['', '请先填写视频文案'],
    ['   ', '请先填写视频文案'],
    ['字'.repeat(10_001), '文案不能超过 10000 字（当前 10001 字），请删减后再继续'],
    ['……！！', '文案中没有可朗读的文字，请填写正文'],
  ])('refuses text #%# with a Chinese message and sends nothing', async (text, problem) => {
    const server = await start();
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.change(textArea(), { target: { value: text } });
    next();
    expect((await screen.findAllByText(problem)).length).toBeGreaterThan(0);
    await settle();
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(0);
    expect(textArea()).toHaveValue(text);
  });

  it('shows the server’s refusal and keeps what was typed', async () => {
    await start({
      'POST /api/video/save_text': () => refuse(400, '「标题」不能超过 100 个字符', 400),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.change(textArea(), { target: { value: '一段文案。' } });
    next();
    expect(await screen.findByText('「标题」不能超过 100 个字符')).toBeVisible();
    expect(textArea()).toHaveValue('一段文案。');
    expect(location()).toBe('/video/config');
    await waitFor(() =>
      expect(screen.getByText('下一步：分镜字幕').closest('button')).not.toHaveClass(
        'ant-btn-loading',
      ),
    );
  });

  it('says in Chinese when a list cannot load: styles, voices, music', async () => {
    await start({
      'GET /api/lora/get_loras': () => refuse(500, '画风服务不可用'),
      'GET /api/edit/tts_list': () => refuse(500, '语音服务不可用'),
      'GET /api/edit/new_bg_music_list': () => refuse(500, '音乐库不可用'),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    expect(await screen.findByText('画风加载失败：画风服务不可用')).toBeVisible();
    expect(await screen.findByText('配音音色加载失败：语音服务不可用')).toBeVisible();
    expect(await screen.findByText('音乐加载失败：音乐库不可用')).toBeVisible();
  });

  it('auditions the voice with the text’s first words (tts_audition)', async () => {
    const server = await start();
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.change(textArea(), { target: { value: '林动走进山门。' } });
    await screen.findByText(/普通话女声/);
    fireEvent.click(screen.getByLabelText('试听配音'));
    await waitFor(() => expect(server.calls('POST', '/api/video/tts_audition')).toHaveLength(1));
    expect(server.calls('POST', '/api/video/tts_audition')[0]?.body).toEqual({
      text: '林动走进山门。',
      voiceId: 'espeak-cmn-f',
      speed: 1,
    });
    expect(await screen.findByLabelText('停止试听配音')).toBeInTheDocument();
  });

  it('says why an audition failed', async () => {
    await start({ 'POST /api/video/tts_audition': () => refuse(400, '「配音」不存在', 400) });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    await screen.findByText(/普通话女声/);
    fireEvent.click(screen.getByLabelText('试听配音'));
    expect(await screen.findByText('试听失败：「配音」不存在')).toBeVisible();
  });

  it('searches the music and previews a track', async () => {
    const server = await start({
      'GET /api/edit/search_music': () =>
        ok([{ musicId: 5, name: '我的配乐', url: '/uploads/x.mp3', durationMs: 3000, tags: [] }]),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    const search = screen.getByLabelText('搜索音乐');
    fireEvent.change(search, { target: { value: '我的' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByLabelText(/^我的配乐/)).toBeInTheDocument();
    expect(server.calls('GET', '/api/edit/search_music')[0]?.query).toEqual({ keyword: '我的' });
    fireEvent.click(screen.getByLabelText('试听 我的配乐'));
    expect(await screen.findByLabelText('停止试听 我的配乐')).toBeInTheDocument();
  });

  it('takes a text from 我的文案 (get_works, work_info)', async () => {
    await start({
      'GET /api/video/get_works': () => ok(page([demoWork(9, { title: '旧文案' })])),
      'GET /api/video/work_info': () =>
        ok(demoWorkDetail(9, { title: '旧文案', text: '旧文案的全文。' })),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.click(screen.getByText('我的文案'));
    fireEvent.click(await screen.findByLabelText('使用文案 旧文案'));
    await waitFor(() => expect(textArea()).toHaveValue('旧文案的全文。'));
    expect(screen.getByLabelText('作品标题')).toHaveValue('旧文案');
  });

  it('takes a book chapter through the writing calls and remembers the chapter id', async () => {
    const server = await start({
      'GET /api/writing/get_platforms': () => ok([{ id: 1, name: '本地书库', builtin: true }]),
      'GET /api/writing/search': () =>
        ok([
          {
            bookId: 11,
            platformId: 1,
            title: '星河旧梦',
            author: '项目组',
            intro: '',
            chapterCount: 2,
          },
        ]),
      'GET /api/writing/search_cbid': () =>
        ok({
          bookId: 11,
          platformId: 1,
          title: '星河旧梦',
          author: '项目组',
          intro: '',
          chapterCount: 2,
          chapters: [
            { chapterId: 101, index: 0, title: '第一章 启程', wordCount: 1200 },
            { chapterId: 102, index: 1, title: '第二章 归来', wordCount: 900 },
          ],
        }),
      'GET /api/writing/get_chapter_content': ({ query }) =>
        ok({
          bookId: 11,
          chapterId: Number(query.chapterId),
          title: '第一章 启程',
          content: '飞船起飞了。',
        }),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.click(screen.getByText('书籍章节'));
    await screen.findByText('本地书库');
    const search = screen.getByLabelText('搜索书名');
    fireEvent.change(search, { target: { value: '星河' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(await screen.findByLabelText('选择书籍 星河旧梦'));
    fireEvent.click(await screen.findByText(/^使用本章$/));
    await waitFor(() => expect(textArea()).toHaveValue('飞船起飞了。'));
    expect(server.calls('GET', '/api/writing/get_chapter_content')[0]?.query).toEqual({
      bookId: '11',
      chapterId: '101',
    });
    expect(sessionStore.get('chapterId')).toBe(101);
  });

  it('refuses a file that is not a .txt', async () => {
    await start();
    const { container } = renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    const input = container.querySelector('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'book.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByText('仅支持导入 .txt 文本文件')).toBeVisible();
    expect(textArea()).toHaveValue('');
  });

  it('imports a .txt file as the text', async () => {
    await start();
    const { container } = renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    const input = container.querySelector('input[type="file"]');
    if (!input) throw new Error('no file input');
    await act(async () => {
      fireEvent.change(input, {
        target: { files: [new File(['第一句。第二句。'], '故事.txt', { type: 'text/plain' })] },
      });
    });
    await waitFor(() => expect(textArea()).toHaveValue('第一句。第二句。'));
  });

  it('switches to the overseas clip: ?videoType=5, English voices, the text carried over', async () => {
    const server = await start();
    renderWithHost(<ComicConfigStep />, { route: '/video/config?videoType=0' });
    fireEvent.change(textArea(), { target: { value: 'Once there was a mountain.' } });
    fireEvent.click(screen.getByLabelText('海外版'));
    await waitFor(() => expect(location()).toBe('/video/config?videoType=5'));
    expect(screen.getByText('海外漫剪视频 · 视频配置')).toBeVisible();
    expect(textArea()).toHaveValue('Once there was a mountain.');
    expect(await screen.findByText(/English female/)).toBeInTheDocument();
    expect(server.calls('GET', '/api/edit/tts_list').at(-1)?.query).toEqual({ language: 'en' });
    next();
    await waitFor(() => expect(location()).toBe('/video/caption?videoType=5&workId=21'));
    expect(server.calls('POST', '/api/video/save_text')[0]?.body).toMatchObject({ type: 5 });
  });

  it('says so to a user without the comic template id', async () => {
    await start();
    renderWithHost(<ComicConfigStep />, {
      route: '/video/config',
      user: demoUser({ templateIds: [0] }),
    });
    expect(screen.getByText('你没有使用「漫剪视频」的权限，如需开通请联系我们。')).toBeVisible();
  });

  it('with no count left, refreshes the shared counts, blocks the page and goes back', async () => {
    const limits = demoLimits({ remainOverseaGenCount: 0, remainRewardsOverseaGenerateCount: 0 });
    await start({ 'GET /api/user/get_user_limit_info': () => ok(limits) });
    function From() {
      const navigate = useNavigate();
      return <button onClick={() => navigate('/video/config?videoType=5')}>去配置</button>;
    }
    const { store } = renderWithHost(
      <Routes>
        <Route path="/video" element={<From />} />
        <Route path="/video/config" element={<ComicConfigStep />} />
      </Routes>,
      { route: '/video' },
    );
    fireEvent.click(screen.getByRole('button', { name: '去配置' }));
    expect(await screen.findByText('海外漫剪视频的生成次数已用完')).toBeVisible();
    expect(store.get(usageLimitsAtom)).toEqual(limits);
    expect(screen.queryByRole('textbox', { name: '视频文案' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '返回上一页' }));
    expect(location()).toBe('/video');
  });

  it('shows the generation model beside the style (version_list), first the one that draws', async () => {
    await start({
      'GET /api/version/version_list': () =>
        ok([
          { id: 2, name: 'ComfyUI（本机）', description: '已配置的图像服务（ComfyUI 工作流）' },
          { id: 1, name: '本地画面', description: '本地画面渲染：图像服务出错时代替出错的画面' },
        ]),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    expect(await screen.findByTestId('image-engines')).toHaveTextContent(
      '生成模型：ComfyUI（本机）（已配置的图像服务（ComfyUI 工作流））；出错时由本地画面代替',
    );
  });

  it('says so when the generation model cannot load, and asks again', async () => {
    let fail = true;
    await start({
      'GET /api/version/version_list': () =>
        fail
          ? refuse(500, '服务暂时不可用', 500)
          : ok([{ id: 1, name: '本地画面', description: '本地画面渲染' }]),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    const note = await screen.findByTestId('image-engines');
    expect(note).toHaveTextContent('生成模型加载失败：服务暂时不可用');
    fail = false;
    fireEvent.click(within(note).getByText('重新加载'));
    await waitFor(() =>
      expect(screen.getByTestId('image-engines')).toHaveTextContent(
        '生成模型：本地画面（本地画面渲染）',
      ),
    );
  });

  it('keeps 下一步 in sight on a wide screen: the action bar sticks to the window’s bottom', async () => {
    await start();
    const { container } = renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    expect(container.querySelector('[data-layout="wide"]')).toBeInTheDocument();
    const bar = screen.getByRole('toolbar', { name: '页面操作' });
    // jsdom lays nothing out: what keeps the bar on a 1440×900 screen is its sticky bottom.
    expect(bar).toHaveStyle({ position: 'sticky', bottom: '0px' });
    expect(within(bar).getByRole('button', { name: '下一步：分镜字幕' })).toBeInTheDocument();
  });

  it('lays the page out for a phone under /m, with the action bar, and stays on /m', async () => {
    await start();
    const { container } = renderWithHost(<ComicConfigStep />, { route: '/m/video/config' });
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
    const bar = screen.getByRole('toolbar', { name: '页面操作' });
    expect(bar).toHaveStyle({ position: 'fixed', bottom: '0px' });
    fireEvent.change(textArea(), { target: { value: '一句话。' } });
    fireEvent.click(within(bar).getByRole('button', { name: '下一步：分镜字幕' }));
    await waitFor(() => expect(location()).toBe('/m/video/caption?videoType=0&workId=21'));
  });

  it('says in Chinese when saving the settings fails (save_video_info), keeping them', async () => {
    await start({ 'POST /api/video/save_video_info': () => refuse(400, '「画风」不存在', 400) });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.change(textArea(), { target: { value: '一段文案。' } });
    next();
    expect(await screen.findByText('「画风」不存在')).toBeVisible();
    expect(location()).toBe('/video/config');
    expect(textArea()).toHaveValue('一段文案。');
  });

  it('says in Chinese when a music search fails', async () => {
    await start({ 'GET /api/edit/search_music': () => refuse(400, '请输入「关键词」', 400) });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    const search = screen.getByLabelText('搜索音乐');
    fireEvent.change(search, { target: { value: 'x' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('音乐加载失败：请输入「关键词」')).toBeVisible();
  });

  it('says in Chinese when 我的文案 cannot list or open a text', async () => {
    let listFails = true;
    await start({
      'GET /api/video/get_works': () =>
        listFails
          ? refuse(500, '作品列表暂时不可用')
          : ok(page([demoWork(9, { title: '旧文案' })])),
      'GET /api/video/work_info': () => refuse(404, '没有找到这个作品', 404),
    });
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.click(screen.getByText('我的文案'));
    expect(await screen.findByText('作品列表暂时不可用')).toBeVisible();
    listFails = false;
    fireEvent.click(screen.getByText('重新加载'));
    fireEvent.click(await screen.findByLabelText('使用文案 旧文案'));
    expect(await screen.findByText('没有找到这个作品')).toBeVisible();
    expect(textArea()).toHaveValue('');
  });

  it.each([
    ['get_platforms', 'GET /api/writing/get_platforms', '书籍平台加载失败：书库暂时不可用'],
    ['search', 'GET /api/writing/search', '书库暂时不可用'],
    ['search_cbid', 'GET /api/writing/search_cbid', '书库暂时不可用'],
    ['get_chapter_content', 'GET /api/writing/get_chapter_content', '书库暂时不可用'],
  ])('says in Chinese when %s fails', async (_name, failing, shown) => {
    const routes: FakeRoutes = {
      'GET /api/writing/get_platforms': () => ok([{ id: 1, name: '本地书库', builtin: true }]),
      'GET /api/writing/search': () =>
        ok([
          { bookId: 11, platformId: 1, title: '星河旧梦', author: '', intro: '', chapterCount: 1 },
        ]),
      'GET /api/writing/search_cbid': () =>
        ok({
          bookId: 11,
          platformId: 1,
          title: '星河旧梦',
          author: '',
          intro: '',
          chapterCount: 1,
          chapters: [{ chapterId: 101, index: 0, title: '第一章', wordCount: 10 }],
        }),
      'GET /api/writing/get_chapter_content': () =>
        ok({ bookId: 11, chapterId: 101, title: '第一章', content: '正文。' }),
    };
    routes[failing] = () => refuse(500, '书库暂时不可用');
    await start(routes);
    renderWithHost(<ComicConfigStep />, { route: '/video/config' });
    fireEvent.click(screen.getByText('书籍章节'));
    if (failing !== 'GET /api/writing/get_platforms') {
      await screen.findByText('本地书库');
      const search = screen.getByLabelText('搜索书名');
      fireEvent.change(search, { target: { value: '星河' } });
      fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
      if (failing !== 'GET /api/writing/search') {
        fireEvent.click(await screen.findByLabelText('选择书籍 星河旧梦'));
        if (failing !== 'GET /api/writing/search_cbid') {
          fireEvent.click(await screen.findByText(/^使用本章$/));
        }
      }
    }
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(textArea()).toHaveValue('');
  });
});
