import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MAX_BOOK_UPLOAD_BYTES, type GenerateTextBody } from '@kol/shared-sdk';
import { PLATFORMS, demoBook, demoBookSummary, textResult } from '../../testing/fixtures';
import {
  ok,
  openedStream,
  refuse,
  startFakeBackend,
  type FakeBackend,
  type FakeRoutes,
} from '../../testing/fake-backend';
import { renderWithHost, settle } from '@kol/shared-sdk/testing';
import { GeneratePage } from '../generate-page';

let backend: FakeBackend | undefined;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

const BOOK = demoBook();

function writingRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/writing/get_platforms': () => ok(PLATFORMS),
    'GET /api/writing/search': () => ok([demoBookSummary()]),
    'GET /api/writing/search_cbid': () => ok(BOOK),
    'GET /api/writing/get_chapter_content': ({ query }) =>
      ok({
        bookId: Number(query.bookId),
        chapterId: Number(query.chapterId),
        title: '第二章 星图',
        content: '星图在舱壁上缓缓展开，少年第一次看见了回家的路。',
      }),
    'POST /api/writing/generate': () => ok({ taskId: 'task-1' }),
    'POST /api/writing/cancel': () => ok(null),
    'POST /api/video/save_text': () => ok({ workId: 42, revision: 1 }),
    ...overrides,
  };
}

async function renderPage(overrides: FakeRoutes = {}) {
  backend = await startFakeBackend(writingRoutes(overrides));
  const view = renderWithHost(<GeneratePage />, { route: '/generate' });
  return { ...view, server: backend };
}

/** Searches 星河 by name and picks the book and its first two chapters. */
async function pickBookAndChapters() {
  await screen.findByText('本地书库');
  fireEvent.change(screen.getByLabelText('搜索书籍'), { target: { value: '星河' } });
  fireEvent.click(screen.getByText(/^搜\s*索$/));
  fireEvent.click(await screen.findByLabelText('选择 星河旧梦'));
  await screen.findByTestId('chosen-book');
  fireEvent.click(screen.getByLabelText('第一章 醒来'));
  fireEvent.click(screen.getByLabelText('第二章 星图'));
}

/** Waits for the page to open the generation stream (React renders meanwhile). */
function nextStream(server: FakeBackend) {
  return openedStream(server);
}

function resultArea(): HTMLTextAreaElement {
  return screen.getByLabelText('生成结果') as HTMLTextAreaElement;
}

describe('/generate', () => {
  it('finds a book, picks chapters, streams the text piece by piece, edits, saves and sends it to video', async () => {
    const { server } = await renderPage();
    await pickBookAndChapters();
    const search = server.calls('GET', '/api/writing/search');
    expect(search.map((call) => call.query)).toEqual([{ bookName: '星河', platformId: '1' }]);
    expect(server.calls('GET', '/api/writing/search_cbid')[0]?.query).toEqual({
      cbid: '11',
      platformId: '1',
    });
    expect(screen.getByText('1530 字')).toBeInTheDocument();
    expect(screen.getByTestId('chapter-summary')).toHaveTextContent('已选 2 章，共 2730 字');

    // Preview a chapter's content.
    fireEvent.click(screen.getByLabelText('预览 第二章 星图'));
    expect(await screen.findByTestId('chapter-preview')).toHaveTextContent('回家的路');
    expect(server.calls('GET', '/api/writing/get_chapter_content')[0]?.query).toEqual({
      bookId: '11',
      chapterId: '102',
    });
    fireEvent.click(screen.getByTestId('chapter-preview-close'));

    fireEvent.click(screen.getByLabelText('视频解说稿'));
    fireEvent.change(screen.getByLabelText('字数'), { target: { value: '500' } });
    fireEvent.change(screen.getByLabelText('风格'), { target: { value: '悬疑紧张' } });
    fireEvent.click(screen.getByTestId('generate'));

    const stream = await nextStream(server);
    expect(stream.query).toEqual({ taskId: 'task-1' });
    expect(server.calls('POST', '/api/writing/generate')[0]?.body).toEqual({
      bookId: 11,
      chapterIds: [101, 102],
      kind: 'narration',
      length: 500,
      tone: '悬疑紧张',
    } satisfies GenerateTextBody);

    await screen.findByTestId('stop');
    stream.send('delta', { text: '深夜，' });
    await waitFor(() => expect(resultArea()).toHaveValue('深夜，'));
    expect(screen.getByTestId('generation-status')).toHaveTextContent('生成中');
    stream.send('delta', { text: '旧飞船醒了。' });
    await waitFor(() => expect(resultArea()).toHaveValue('深夜，旧飞船醒了。'));
    stream.send('done', {
      result: textResult({ text: '深夜，旧飞船醒了。', engine: '本地引擎（抽取式）' }),
    });
    expect(await screen.findByTestId('engine')).toHaveTextContent('由 本地引擎（抽取式） 生成');
    expect(screen.getByTestId('generation-status')).toHaveTextContent('已完成');

    // Edit, then save with the default title (book + chapter).
    fireEvent.change(resultArea(), { target: { value: '深夜，旧飞船醒了。少年睁开眼。' } });
    fireEvent.click(screen.getByTestId('save'));
    const title = await screen.findByLabelText('标题');
    expect(title).toHaveValue('星河旧梦 第一章 醒来 等 2 章');
    fireEvent.click(screen.getByText(/^保\s*存$/));
    expect(await screen.findByTestId('saved-link')).toHaveAttribute('href', '/work');
    expect(server.calls('POST', '/api/video/save_text').map((call) => call.body)).toEqual([
      { title: '星河旧梦 第一章 醒来 等 2 章', text: '深夜，旧飞船醒了。少年睁开眼。', type: 0 },
    ]);

    // 发送到视频 asks the type; the text goes with the title it was saved under.
    fireEvent.click(screen.getByTestId('send-to-video'));
    fireEvent.click(await screen.findByRole('button', { name: /^漫剪视频/ }));
    expect(JSON.parse(sessionStorage.getItem('KOL_VIDEO_HANDOVER') ?? 'null')).toEqual({
      type: 0,
      text: '深夜，旧飞船醒了。少年睁开眼。',
      title: '星河旧梦 第一章 醒来 等 2 章',
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/config\?videoType=0$/);
  });

  /**
   * My copy's work as the server keeps it after the first save (revision 1): update_text saves
   * on the newest revision only (412 otherwise), work_info answers it, and `elsewhere` changes
   * it as another tab's edit in My copy does.
   */
  function copyRoutes() {
    const copy = { title: '星河旧梦 第一章 醒来 等 2 章', text: '成稿', revision: 1 };
    const answer = () => ({
      workId: 42,
      type: 0,
      flag: 0,
      settings: { aspect: '9:16' },
      shots: [],
      coverUrl: '',
      updateTime: '2026-11-20T10:00:00.000Z',
      ...copy,
    });
    return {
      elsewhere: (change: Partial<typeof copy>) => {
        Object.assign(copy, change, { revision: copy.revision + 1 });
      },
      routes: {
        'GET /api/video/work_info': () => ok(answer()),
        'POST /api/video/update_text': ({ body }) => {
          const { revision, title, text } = body as {
            revision: number;
            title: string;
            text: string;
          };
          if (revision !== copy.revision) {
            return refuse(412, '该作品已在其他页面修改，请刷新后再编辑', 412);
          }
          Object.assign(copy, { title, text, revision: copy.revision + 1 });
          return ok(answer());
        },
      } satisfies FakeRoutes,
    };
  }

  /** Generates 成稿, saves it once (save_text), then edits it on the page. */
  async function saveThenEdit(routes: FakeRoutes) {
    const view = await renderPage(routes);
    await pickBookAndChapters();
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await nextStream(view.server);
    stream.send('done', { result: textResult({ text: '成稿' }) });
    await screen.findByTestId('engine');
    fireEvent.click(screen.getByTestId('save'));
    fireEvent.click(await screen.findByText(/^保\s*存$/));
    await screen.findByTestId('saved-link');
    fireEvent.change(resultArea(), { target: { value: '成稿，改过' } });
    return view;
  }

  it('saves the same text again with update_text, on the revision the first save answered', async () => {
    const copy = copyRoutes();
    const { server } = await saveThenEdit(copy.routes);
    fireEvent.click(screen.getByTestId('save'));
    fireEvent.change(await screen.findByLabelText('标题'), { target: { value: '新标题' } });
    fireEvent.click(screen.getByText(/^保\s*存$/));
    await waitFor(() => expect(server.calls('POST', '/api/video/update_text')).toHaveLength(1));
    expect(server.calls('POST', '/api/video/update_text')[0]?.body).toEqual({
      workId: 42,
      revision: 1,
      title: '新标题',
      text: '成稿，改过',
    });
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(1);
    // Never read just before saving: the revision is the one save_text answered.
    expect(server.calls('GET', '/api/video/work_info')).toHaveLength(0);
  });

  it('merges a rename made in My copy meanwhile into the next save', async () => {
    const copy = copyRoutes();
    const { server } = await saveThenEdit(copy.routes);
    copy.elsewhere({ title: '在我的文案里改的标题' });
    fireEvent.click(screen.getByTestId('save'));
    fireEvent.click(await screen.findByText(/^保\s*存$/));
    await waitFor(() => expect(server.calls('POST', '/api/video/update_text')).toHaveLength(2));
    expect(server.calls('POST', '/api/video/update_text').map((call) => call.body)).toEqual([
      { workId: 42, revision: 1, title: '星河旧梦 第一章 醒来 等 2 章', text: '成稿，改过' },
      { workId: 42, revision: 2, title: '在我的文案里改的标题', text: '成稿，改过' },
    ]);
  });

  it('asks when the text was changed in My copy too, and keeps the page’s on request', async () => {
    const copy = copyRoutes();
    const { server } = await saveThenEdit(copy.routes);
    copy.elsewhere({ text: '在我的文案里改过' });
    fireEvent.click(screen.getByTestId('save'));
    fireEvent.click(await screen.findByText(/^保\s*存$/));
    expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(1);
    fireEvent.click(screen.getByText('保留我的修改'));
    await waitFor(() => expect(server.calls('POST', '/api/video/update_text')).toHaveLength(2));
    expect(server.calls('POST', '/api/video/update_text')[1]?.body).toEqual({
      workId: 42,
      revision: 2,
      title: '星河旧梦 第一章 醒来 等 2 章',
      text: '成稿，改过',
    });
  });

  it('stops a running generation with cancel and keeps the text so far', async () => {
    const { server } = await renderPage();
    await pickBookAndChapters();
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await nextStream(server);
    stream.send('delta', { text: '写到一半' });
    await waitFor(() => expect(resultArea()).toHaveValue('写到一半'));
    fireEvent.click(screen.getByTestId('stop'));
    await waitFor(() => expect(server.calls('POST', '/api/writing/cancel')).toHaveLength(1));
    expect(server.calls('POST', '/api/writing/cancel')[0]?.body).toEqual({ taskId: 'task-1' });
    expect(screen.getByTestId('generation-status')).toHaveTextContent('已停止');
    expect(resultArea()).toHaveValue('写到一半');
    expect(resultArea()).not.toHaveAttribute('readonly');
    // Late pieces of the stopped run are not shown.
    stream.send('delta', { text: '不该出现' });
    await settle();
    expect(resultArea()).toHaveValue('写到一半');
    expect(sessionStorage.getItem('KOL_WRITING_TASK_GENERATE')).toBeNull();
  });

  it('shows a refused generation and keeps every input for a retry', async () => {
    let refuseNext = true;
    const { server } = await renderPage({
      'POST /api/writing/generate': () =>
        refuseNext
          ? refuse(5001, 'DeepSeek 余额不足（402），请充值或换用其他模型')
          : ok({ taskId: 'task-2' }),
    });
    await pickBookAndChapters();
    fireEvent.click(screen.getByLabelText('口播短文案'));
    fireEvent.change(screen.getByLabelText('风格'), { target: { value: '甜宠' } });
    fireEvent.click(screen.getByTestId('generate'));
    expect(await screen.findByTestId('generation-error')).toHaveTextContent(
      'DeepSeek 余额不足（402）',
    );
    expect(screen.getByLabelText('第一章 醒来')).toBeChecked();
    expect(screen.getByLabelText('第二章 星图')).toBeChecked();
    expect(screen.getByLabelText('口播短文案')).toBeChecked();
    expect(screen.getByLabelText('风格')).toHaveValue('甜宠');
    expect(screen.getByTestId('chosen-book')).toHaveTextContent('星河旧梦');

    refuseNext = false;
    fireEvent.click(within(screen.getByTestId('generation-error')).getByRole('button'));
    await nextStream(server);
    const bodies = server.calls('POST', '/api/writing/generate').map((call) => call.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('shows the error the stream reports and keeps the text written so far', async () => {
    const error = 'OpenAI 兼容接口超时（30 秒），请重试';
    // As the server does: the failure and the text so far are kept before the stream tells it.
    let failed = false;
    const { server } = await renderPage({
      'GET /api/writing/gen_result': () =>
        ok(
          failed
            ? textResult({ state: 'failed', text: '开头', error })
            : textResult({ state: 'running', text: '' }),
        ),
    });
    await pickBookAndChapters();
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await nextStream(server);
    stream.send('delta', { text: '开头' });
    failed = true;
    stream.send('error', { message: error });
    expect(await screen.findByTestId('generation-error')).toHaveTextContent('OpenAI 兼容接口超时');
    expect(resultArea()).toHaveValue('开头');
    expect(screen.getByLabelText('第一章 醒来')).toBeChecked();
  });

  it('asks for a book and chapters instead of sending an empty request', async () => {
    const { server } = await renderPage();
    await screen.findByText('本地书库');
    fireEvent.click(screen.getByTestId('generate'));
    expect(await screen.findByText('请先找到一本书')).toBeInTheDocument();
    await settle();
    expect(server.calls('POST', '/api/writing/generate')).toHaveLength(0);
  });

  it('finds a book by id with search_cbid', async () => {
    const { server } = await renderPage();
    await screen.findByText('本地书库');
    fireEvent.click(screen.getByText('按书籍编号'));
    fireEvent.change(screen.getByLabelText('搜索书籍'), { target: { value: 'cb-11' } });
    fireEvent.click(screen.getByText(/^搜\s*索$/));
    expect(await screen.findByTestId('chosen-book')).toHaveTextContent('星河旧梦');
    expect(server.calls('GET', '/api/writing/search_cbid')[0]?.query).toEqual({
      cbid: 'cb-11',
      platformId: '1',
    });
    expect(server.calls('GET', '/api/writing/search')).toHaveLength(0);
  });

  it('keeps the search closed until the platforms are in, so an early search is not dropped', async () => {
    await renderPage({
      'GET /api/writing/get_platforms': () => ok(PLATFORMS, 300),
    });
    const input = screen.getByLabelText('搜索书籍');
    expect(input).toBeDisabled();
    expect(input).toHaveAttribute('placeholder', '正在加载书籍平台…');
    await waitFor(() => expect(screen.getByLabelText('搜索书籍')).toBeEnabled());
    expect(screen.getByLabelText('搜索书籍')).toHaveAttribute(
      'placeholder',
      '输入书名，留空搜索列出书库中的书',
    );
  });

  it('remembers the chosen platform', async () => {
    const { server, unmount } = await renderPage();
    await screen.findByText('本地书库');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '平台' }));
    fireEvent.click(await screen.findByTitle('起点中文网'));
    expect(localStorage.getItem('KOL_LAST_PLATFORM_ID')).toBe('2');
    unmount();
    renderWithHost(<GeneratePage />, { route: '/generate' });
    expect(await screen.findByText('起点中文网')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('搜索书籍'), { target: { value: '星河' } });
    fireEvent.click(screen.getByText(/^搜\s*索$/));
    await waitFor(() => expect(server.calls('GET', '/api/writing/search')).toHaveLength(1));
    expect(server.calls('GET', '/api/writing/search')[0]?.query.platformId).toBe('2');
  });

  it('keeps the draft (book, chapters, options, edited text) across a reload', async () => {
    const { server, unmount } = await renderPage();
    await pickBookAndChapters();
    fireEvent.change(screen.getByLabelText('风格'), { target: { value: '热血燃' } });
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await nextStream(server);
    stream.send('done', { result: textResult({ text: '初稿' }) });
    await screen.findByTestId('engine');
    fireEvent.change(resultArea(), { target: { value: '初稿，手改过' } });
    unmount();

    renderWithHost(<GeneratePage />, { route: '/generate' });
    expect(await screen.findByTestId('chosen-book')).toHaveTextContent('星河旧梦');
    expect(screen.getByLabelText('第二章 星图')).toBeChecked();
    expect(screen.getByLabelText('风格')).toHaveValue('热血燃');
    expect(resultArea()).toHaveValue('初稿，手改过');
  });

  it('re-attaches to the running task after a reload', async () => {
    sessionStorage.setItem(
      'KOL_WRITING_TASK_GENERATE',
      JSON.stringify({ taskId: 'task-9', via: 'stream', meta: { page: 'generate' } }),
    );
    backend = await startFakeBackend(
      writingRoutes({
        'GET /api/writing/gen_result': () =>
          ok(
            textResult({ taskId: 'task-9', state: 'running', text: '已写', engine: 'gpt-4o-mini' }),
          ),
      }),
    );
    renderWithHost(<GeneratePage />, { route: '/generate' });
    const stream = await nextStream(backend);
    expect(stream.query).toEqual({ taskId: 'task-9' });
    expect(await screen.findByTestId('engine')).toHaveTextContent('gpt-4o-mini');
    // A late client first receives the text so far as one delta.
    stream.send('delta', { text: '已写' });
    stream.send('delta', { text: '的部分' });
    await waitFor(() => expect(resultArea()).toHaveValue('已写的部分'));
    expect(screen.getByTestId('stop')).toBeInTheDocument();
    stream.send('done', {
      result: textResult({ taskId: 'task-9', text: '已写的部分。', engine: 'gpt-4o-mini' }),
    });
    await waitFor(() => expect(resultArea()).toHaveValue('已写的部分。'));
    expect(sessionStorage.getItem('KOL_WRITING_TASK_GENERATE')).toBeNull();
  });

  it('shows how a task ended while the page was away', async () => {
    sessionStorage.setItem(
      'KOL_WRITING_TASK_GENERATE',
      JSON.stringify({ taskId: 'task-9', via: 'stream', meta: { page: 'generate' } }),
    );
    backend = await startFakeBackend(
      writingRoutes({
        'GET /api/writing/gen_result': () =>
          ok(
            textResult({
              taskId: 'task-9',
              state: 'failed',
              text: '',
              error: '服务重启，任务已中断，请重试',
            }),
          ),
      }),
    );
    renderWithHost(<GeneratePage />, { route: '/generate' });
    expect(await screen.findByTestId('generation-error')).toHaveTextContent('服务重启');
    expect(backend.streams).toHaveLength(0);
  });

  it('sends many chapters to generate_async and polls its result', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const chapters = Array.from({ length: 7 }, (_, index) => ({
        chapterId: 201 + index,
        index,
        title: `第${index + 1}章`,
        wordCount: 1000,
      }));
      let polls = 0;
      const { server } = await renderPage({
        'GET /api/writing/search_cbid': () => ok(demoBook({ chapters, chapterCount: 7 })),
        'POST /api/writing/generate_async': () => ok({ taskId: 'long-1' }),
        'GET /api/writing/get_generate_async_result': () => {
          polls += 1;
          return ok(
            polls < 2
              ? textResult({ taskId: 'long-1', state: 'running', text: '前半' })
              : textResult({ taskId: 'long-1', text: '前半后半', engine: '本地引擎' }),
          );
        },
      });
      await screen.findByText('本地书库');
      fireEvent.change(screen.getByLabelText('搜索书籍'), { target: { value: '星河' } });
      fireEvent.click(screen.getByText(/^搜\s*索$/));
      fireEvent.click(await screen.findByLabelText('选择 星河旧梦'));
      fireEvent.click(await screen.findByLabelText('全选'));
      fireEvent.click(screen.getByTestId('generate'));
      await waitFor(() => expect(resultArea()).toHaveValue('前半'));
      await act(async () => {
        await jest.advanceTimersByTimeAsync(1100);
      });
      await waitFor(() => expect(resultArea()).toHaveValue('前半后半'));
      expect(server.calls('POST', '/api/writing/generate_async')[0]?.body).toMatchObject({
        chapterIds: chapters.map((c) => c.chapterId),
      });
      expect(server.calls('POST', '/api/writing/generate')).toHaveLength(0);
      expect(server.streams).toHaveLength(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('copies the text through the clipboard', async () => {
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { server } = await renderPage();
    await pickBookAndChapters();
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await nextStream(server);
    stream.send('done', { result: textResult({ text: '可复制' }) });
    await screen.findByTestId('engine');
    fireEvent.click(screen.getByTestId('copy'));
    expect(await screen.findByText('已复制到剪贴板')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('可复制');
  });

  describe('upload', () => {
    function choose(file: File) {
      const input = document.querySelector('input[type="file"]');
      if (!input) throw new Error('no file input');
      fireEvent.change(input, { target: { files: [file] } });
    }

    it.each([
      [
        'a PDF',
        new File(['%PDF'], 'book.pdf', { type: 'application/pdf' }),
        '仅支持 TXT 或 EPUB 格式的书籍',
      ],
      [
        'a book over the limit',
        new File([new Uint8Array(MAX_BOOK_UPLOAD_BYTES + 1)], 'big.txt', { type: 'text/plain' }),
        '书籍文件不能超过 20 MB',
      ],
      [
        'an empty file',
        new File([], 'empty.txt', { type: 'text/plain' }),
        '文件是空的，请换一个文件',
      ],
    ])('refuses %s before sending anything', async (_name, file, text) => {
      const { server } = await renderPage();
      await screen.findByText('本地书库');
      choose(file);
      expect(await screen.findByText(text)).toBeInTheDocument();
      await settle();
      expect(server.calls('POST', '/api/writing/upload_book')).toHaveLength(0);
    });

    it('uploads a TXT book and opens it', async () => {
      const { server } = await renderPage({
        'POST /api/writing/upload_book': () => ok(demoBook({ bookId: 77, title: '我的书' })),
      });
      await screen.findByText('本地书库');
      choose(new File(['第一章 开始\n正文'], '我的书.txt', { type: 'text/plain' }));
      expect(await screen.findByTestId('chosen-book')).toHaveTextContent('我的书');
      expect(await screen.findByText('《我的书》已加入本地书库，共 3 章')).toBeInTheDocument();
      const [upload] = server.calls('POST', '/api/writing/upload_book');
      expect(String(upload?.headers['content-type'])).toMatch(/^multipart\/form-data/);
      expect(upload?.body).toContain('第一章 开始');
    });

    it("shows the server's message when it refuses the book", async () => {
      await renderPage({
        'POST /api/writing/upload_book': () =>
          refuse(4002, '没有找到章节标题（如“第一章”），无法分章'),
      });
      await screen.findByText('本地书库');
      choose(new File(['没有章节的文字'], 'plain.txt', { type: 'text/plain' }));
      expect(
        await screen.findByText('没有找到章节标题（如“第一章”），无法分章'),
      ).toBeInTheDocument();
      expect(screen.queryByTestId('chosen-book')).not.toBeInTheDocument();
    });
  });
});
