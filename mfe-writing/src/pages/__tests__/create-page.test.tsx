import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { textResult } from '../../testing/fixtures';
import { ok, openedStream, startFakeBackend, type FakeBackend } from '../../testing/fake-backend';
import { renderWithHost, settle } from '@kol/shared-sdk/testing';
import { createQueryClient } from '@kol/shared-sdk/state';
import { configuredServices } from '@kol/shared-sdk/ui';
import { CreatePage } from '../create-page';

let backend: FakeBackend | undefined;
let taskCount = 0;

beforeEach(() => {
  // Each render has a query client of its own: each test is a fresh installation, whose text
  // model is asked again.
  localStorage.clear();
  sessionStorage.clear();
  taskCount = 0;
});

afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

async function renderPage(textModel = false) {
  backend = await startFakeBackend({
    'GET /api/video/services': () =>
      ok({ text: textModel ? 'deepseek-chat' : null, pictures: null, voice: null }),
    'POST /api/writing/generate': () => {
      taskCount += 1;
      return ok({ taskId: `task-${taskCount}` });
    },
    'POST /api/writing/cancel': () => ok(null),
    'POST /api/video/save_text': () => ok({ workId: 8, revision: 1 }),
  });
  const queryClient = createQueryClient();
  const view = renderWithHost(<CreatePage />, { route: '/create', queryClient });
  // The installation's answer is in before the test goes on (no state change after it ends):
  // the page's own ask, on the page's client.
  await act(() => configuredServices(queryClient));
  return { ...view, server: backend };
}

function editor(): HTMLTextAreaElement {
  return screen.getByLabelText('正文') as HTMLTextAreaElement;
}

function chooseMode(label: string) {
  fireEvent.click(
    screen.getByText(label, { selector: '.ant-segmented-item-label, .ant-segmented-item-label *' }),
  );
}

/** Runs one generation whose stream writes `pieces`, then ends with their sum. */
async function runAndFinish(server: FakeBackend, pieces: string[]) {
  fireEvent.click(screen.getByTestId('generate'));
  const stream = await openedStream(server);
  for (const piece of pieces) stream.send('delta', { text: piece });
  stream.send('done', { result: textResult({ text: pieces.join(''), engine: 'qwen-plus' }) });
  await waitFor(() => expect(screen.getByTestId('generation-status')).toHaveTextContent('已完成'));
}

function lastBody(server: FakeBackend) {
  return server.calls('POST', '/api/writing/generate').at(-1)?.body;
}

describe('/create', () => {
  it('writes from the prompt, genre and tone, streaming into the editor', async () => {
    const { server } = await renderPage(true);
    fireEvent.change(screen.getByLabelText('提示或大纲'), {
      target: { value: '废土少女修机器人' },
    });
    fireEvent.change(screen.getByLabelText('题材'), { target: { value: '科幻' } });
    fireEvent.change(screen.getByLabelText('风格'), { target: { value: '温暖治愈' } });
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await openedStream(server);
    stream.send('delta', { text: '风沙里，' });
    await waitFor(() => expect(editor()).toHaveValue('风沙里，'));
    stream.send('delta', { text: '她拧紧最后一颗螺丝。' });
    await waitFor(() => expect(editor()).toHaveValue('风沙里，她拧紧最后一颗螺丝。'));
    stream.send('done', {
      result: textResult({ text: '风沙里，她拧紧最后一颗螺丝。', engine: 'qwen-plus' }),
    });
    expect(await screen.findByTestId('engine')).toHaveTextContent('qwen-plus');
    expect(lastBody(server)).toEqual({
      mode: 'write',
      sourceText: '废土少女修机器人',
      genre: '科幻',
      tone: '温暖治愈',
      length: 800,
    });
    expect(screen.getByTestId('version-1')).toHaveTextContent('写作');
    // A text model is configured: nothing to say before the click.
    expect(screen.queryByTestId('local-engine-note')).toBeNull();
  });

  it.each([
    ['续写', 'continue'],
    ['改写', 'rewrite'],
    ['扩写', 'expand'],
    ['润色', 'polish'],
  ])('%s sends mode %s with the editor text as the source', async (label, mode) => {
    const { server } = await renderPage();
    fireEvent.change(screen.getByLabelText('提示或大纲'), { target: { value: '提示不该被发送' } });
    fireEvent.change(editor(), { target: { value: '我写的正文。' } });
    chooseMode(label);
    fireEvent.click(screen.getByTestId('generate'));
    await waitFor(() => expect(server.calls('POST', '/api/writing/generate')).toHaveLength(1));
    expect(lastBody(server)).toEqual({ mode, sourceText: '我写的正文。', length: 800 });
  });

  it('asks for text before continuing an empty editor, sending nothing', async () => {
    const { server } = await renderPage();
    chooseMode('续写');
    fireEvent.click(screen.getByTestId('generate'));
    expect(await screen.findByText('请先在编辑区写下或生成一段正文，再续写')).toBeInTheDocument();
    await settle();
    expect(server.calls('POST', '/api/writing/generate')).toHaveLength(0);
    // No text model: the page says before any click that the local engine writes, and how.
    expect(screen.getByTestId('local-engine-note')).toHaveTextContent(
      '未配置文本模型：由本地引擎写作',
    );
  });

  it('continues after the current text and keeps every version, any of which can be restored', async () => {
    const { server } = await renderPage();
    fireEvent.change(screen.getByLabelText('提示或大纲'), { target: { value: '开头' } });
    await runAndFinish(server, ['第一段。']);
    expect(editor()).toHaveValue('第一段。');

    chooseMode('续写');
    await runAndFinish(server, ['第二段。']);
    expect(editor()).toHaveValue('第一段。第二段。');
    expect(lastBody(server)).toMatchObject({ mode: 'continue', sourceText: '第一段。' });

    chooseMode('润色');
    await runAndFinish(server, ['润色后的全文。']);
    expect(editor()).toHaveValue('润色后的全文。');
    expect(screen.getByTestId('version-3')).toHaveTextContent('润色');
    expect(screen.getByTestId('version-1')).toHaveTextContent('第一段。');

    fireEvent.click(screen.getByLabelText('恢复版本 1'));
    expect(editor()).toHaveValue('第一段。');
    // The versions survive a reload.
    const stored = JSON.parse(localStorage.getItem('KOL_WRITING_VERSIONS') ?? '[]') as {
      text: string;
    }[];
    expect(stored.map((version) => version.text)).toEqual([
      '润色后的全文。',
      '第一段。第二段。',
      '第一段。',
    ]);
  });

  it('keeps versions and the draft across a reload', async () => {
    const { server, unmount } = await renderPage();
    fireEvent.change(screen.getByLabelText('提示或大纲'), { target: { value: '重载前的提示' } });
    await runAndFinish(server, ['重载前的正文']);
    unmount();
    renderWithHost(<CreatePage />, { route: '/create' });
    expect(screen.getByLabelText('提示或大纲')).toHaveValue('重载前的提示');
    expect(editor()).toHaveValue('重载前的正文');
    expect(screen.getByTestId('version-1')).toHaveTextContent('重载前的正文');
  });

  it('suggests titles without touching the text, and saves under the chosen one', async () => {
    const { server } = await renderPage();
    fireEvent.change(editor(), { target: { value: '正文内容' } });
    chooseMode('标题建议');
    await runAndFinish(server, ['1. 星河回声\n', '2. 《废土诗人》\n']);
    expect(lastBody(server)).toEqual({ mode: 'titles', sourceText: '正文内容' });
    expect(editor()).toHaveValue('正文内容');
    fireEvent.click(screen.getByLabelText('用作标题 废土诗人'));
    fireEvent.click(screen.getByTestId('save'));
    expect(await screen.findByLabelText('标题')).toHaveValue('废土诗人');
    fireEvent.click(screen.getByText(/^保\s*存$/));
    await screen.findByTestId('saved-link');
    expect(server.calls('POST', '/api/video/save_text')[0]?.body).toEqual({
      title: '废土诗人',
      text: '正文内容',
      type: 0,
    });
  });

  it('a start after a stop is a new generation, even of the same prompt', async () => {
    backend = await startFakeBackend({
      // Slow to accept: the stop comes while the first start is still on its way.
      'POST /api/writing/generate': () => {
        taskCount += 1;
        return ok({ taskId: `task-${taskCount}` }, 300);
      },
      'POST /api/writing/cancel': () => ok(null),
    });
    const server = backend;
    renderWithHost(<CreatePage />, { route: '/create' });
    fireEvent.change(screen.getByLabelText('提示或大纲'), { target: { value: '提示' } });
    fireEvent.click(screen.getByTestId('generate'));
    fireEvent.click(await screen.findByTestId('stop'));
    fireEvent.click(await screen.findByTestId('generate'));
    const stream = await openedStream(server);
    expect(stream.query.taskId).toBe('task-2');
    await waitFor(() => expect(server.calls('POST', '/api/writing/cancel')).toHaveLength(1));
    expect(server.calls('POST', '/api/writing/cancel')[0]?.body).toEqual({ taskId: 'task-1' });
    // Each start under a key of its own: a server that honours keys makes two tasks as well.
    const [first, second] = server
      .calls('POST', '/api/writing/generate')
      .map((call) => call.headers['idempotency-key']);
    expect(first).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('stops a run with cancel', async () => {
    const { server } = await renderPage();
    fireEvent.change(screen.getByLabelText('提示或大纲'), { target: { value: '提示' } });
    fireEvent.click(screen.getByTestId('generate'));
    const stream = await openedStream(server);
    stream.send('delta', { text: '半句' });
    await waitFor(() => expect(editor()).toHaveValue('半句'));
    fireEvent.click(screen.getByTestId('stop'));
    await waitFor(() => expect(server.calls('POST', '/api/writing/cancel')).toHaveLength(1));
    expect(server.calls('POST', '/api/writing/cancel')[0]?.body).toEqual({ taskId: 'task-1' });
    expect(editor()).toHaveValue('半句');
  });
});
