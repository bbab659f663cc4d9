import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ok, refuse, renderWithHost, settle, type FakeRoutes } from '@kol/shared-sdk/testing';
import {
  changeWork,
  videoBackendPerTest,
  workRoutes,
  type WorkState,
} from '../../../testing/backend';
import { demoWorkDetail } from '../../../testing/fixtures';
import { storeDemoDraft } from '../../../testing/opera';
import { operaSession } from '../draft';
import { OperaCaptionStep } from '../steps/caption-step';

const backend = videoBackendPerTest();

const ROUTE = '/video/operaCaption?workId=31';

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    ...workRoutes({ work: demoWorkDetail(31, { type: 8 }) }),
    ...overrides,
  });
}

const speaker = (scene: number, line: number) =>
  screen.getByLabelText(`第 ${scene} 个场景第 ${line} 句的角色`);
const text = (scene: number, line: number) =>
  screen.getByLabelText(`第 ${scene} 个场景第 ${line} 句的台词`);
/** Every scene's lines as 「角色：台词」, as the page shows them. */
const script = () =>
  screen.getAllByRole('group', { name: /^场景 \d+$/ }).map((scene) => {
    const speakers = within(scene).queryAllByLabelText(/句的角色$/) as HTMLInputElement[];
    const texts = within(scene).queryAllByLabelText(/句的台词$/) as HTMLTextAreaElement[];
    return speakers.map((box, i) => `${box.value}：${texts[i]?.value ?? ''}`);
  });
const summary = () => screen.getByTestId('script-summary').textContent;
const next = () => fireEvent.click(screen.getByRole('button', { name: '下一步：角色配音' }));
const location = () => screen.getByTestId('location').textContent;

/** Clicks a delete button, then 删除 in the question it asks. */
async function deleteConfirmed(label: string) {
  fireEvent.click(screen.getByLabelText(label));
  fireEvent.click(await screen.findByRole('button', { name: /^删\s*除$/ }));
}

describe('/video/operaCaption', () => {
  it('shows the script: scenes in order, lines by character, and what it adds up to', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], ['小明：我们走吧。']]);
    expect(summary()).toMatch(/^共 2 个场景 · 3 句台词 · 2 个角色 · 预计时长 约 \d+秒$/);
  });

  it('edits a line’s character and words; a reload keeps them (KOL_OPERA_DRAFT)', async () => {
    await start();
    storeDemoDraft();
    const first = renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.change(speaker(2, 1), { target: { value: '小刚' } });
    fireEvent.change(text(2, 1), { target: { value: '雨停了，我们走吧。' } });
    expect(summary()).toContain('3 个角色');
    first.unmount();

    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], ['小刚：雨停了，我们走吧。']]);
    expect(operaSession.get('operaDraft')?.scenes[1]?.lines[0]).toMatchObject({
      speaker: '小刚',
      text: '雨停了，我们走吧。',
    });
  });

  it('adds scenes and lines; a new line answers the one who spoke before', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.click(screen.getByRole('button', { name: '给场景 1 添加台词' }));
    expect(speaker(1, 3)).toHaveValue('小明');
    fireEvent.change(text(1, 3), { target: { value: '是啊。' } });
    fireEvent.click(screen.getByRole('button', { name: /添加场景$/ }));
    fireEvent.change(speaker(3, 1), { target: { value: '小红' } });
    fireEvent.change(text(3, 1), { target: { value: '再见。' } });
    expect(script()).toEqual([
      ['小明：你好。', '小红：好久不见。', '小明：是啊。'],
      ['小明：我们走吧。'],
      ['小红：再见。'],
    ]);
    expect(summary()).toMatch(/^共 3 个场景 · 5 句台词 · 2 个角色/);
  });

  it('reorders lines and scenes', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.click(screen.getByLabelText('下移第 1 个场景第 1 句'));
    expect(script()).toEqual([['小红：好久不见。', '小明：你好。'], ['小明：我们走吧。']]);
    fireEvent.click(screen.getByLabelText('上移第 2 个场景'));
    expect(script()).toEqual([['小明：我们走吧。'], ['小红：好久不见。', '小明：你好。']]);
    expect(screen.getByLabelText('上移第 1 个场景')).toBeDisabled();
    expect(screen.getByLabelText('下移第 2 个场景第 2 句')).toBeDisabled();
  });

  it('deletes a line and a scene only once asked', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.click(screen.getByLabelText('删除第 1 个场景第 2 句'));
    expect(await screen.findByText('删除这句台词？')).toBeInTheDocument();
    // Asked, not yet done.
    expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], ['小明：我们走吧。']]);
    fireEvent.click(screen.getByRole('button', { name: /^删\s*除$/ }));
    await waitFor(() => expect(script()).toEqual([['小明：你好。'], ['小明：我们走吧。']]));

    await deleteConfirmed('删除第 1 个场景');
    await waitFor(() => expect(script()).toEqual([['小明：我们走吧。']]));
    expect(operaSession.get('operaDraft')?.scenes).toHaveLength(1);
  });

  it.each([
    [
      'a line without a character',
      (c: HTMLElement) => fireEvent.change(c, { target: { value: '' } }),
      '第 2 个场景第 1 句台词缺少「角色」',
    ],
    [
      'a character name with a colon',
      (c: HTMLElement) => fireEvent.change(c, { target: { value: '旁白：甲' } }),
      '第 2 个场景第 1 句台词的角色名不能含有冒号',
    ],
  ])('refuses %s with a message naming the line, and sends nothing', async (_, edit, problem) => {
    const server = await start();
    storeDemoDraft();
    const { container } = renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    edit(speaker(2, 1));
    next();
    expect((await screen.findAllByText(problem)).length).toBeGreaterThan(0);
    await settle();
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(0);
    expect(location()).toBe(ROUTE);
    // Fixing it clears the page's message (the toast goes by itself).
    expect(container.querySelector('.ant-alert-error')).toHaveTextContent(problem);
    fireEvent.change(speaker(2, 1), { target: { value: '小红' } });
    expect(container.querySelector('.ant-alert-error')).not.toBeInTheDocument();
  });

  it.each([
    ['  ', '第 1 个场景第 2 句台词还没有填写'],
    ['……', '第 1 个场景第 2 句台词没有可朗读的文字'],
  ])('refuses the words %j with a message naming the line', async (words, problem) => {
    const server = await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.change(text(1, 2), { target: { value: words } });
    next();
    expect((await screen.findAllByText(problem)).length).toBeGreaterThan(0);
    expect(text(1, 2)).toHaveValue(words);
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(0);
  });

  it('refuses a scene left without lines', async () => {
    const server = await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    await deleteConfirmed('删除第 2 个场景第 1 句');
    await waitFor(() => expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], []]));
    next();
    expect(
      (await screen.findAllByText('第 2 个场景还没有台词，请添加台词或删除这个场景')).length,
    ).toBeGreaterThan(0);
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(0);
  });

  it('saves the script as the work’s text (update_text), then opens the characters', async () => {
    const server = await start();
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.change(text(2, 1), { target: { value: '我们\n走吧。' } });
    next();
    await waitFor(() => expect(location()).toBe('/video/operaCharacter?workId=31'));
    expect(server.calls('POST', '/api/video/update_text').map((call) => call.body)).toEqual([
      { workId: 31, revision: 1, text: '小明：你好。\n小红：好久不见。\n\n小明：我们 走吧。' },
    ]);
  });

  it('asks when the script was changed in another tab since; 载入最新内容 shows that script', async () => {
    const held: WorkState = {
      work: demoWorkDetail(31, {
        type: 8,
        text: '小明：你好。\n小红：好久不见。\n\n小明：我们走吧。',
      }),
    };
    const server = await start(workRoutes(held));
    storeDemoDraft();
    changeWork(held, () => ({ text: '小明：另一个页面改的。' }));
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    fireEvent.change(text(2, 1), { target: { value: '我们回家吧。' } });
    next();
    expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
    expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], ['小明：我们回家吧。']]);
    fireEvent.click(screen.getByText('载入最新内容'));
    await waitFor(() => expect(script()).toEqual([['小明：另一个页面改的。']]));
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(1);
    expect(held.work.text).toBe('小明：另一个页面改的。');
    expect(location()).toBe(ROUTE);
  });

  it('says why the server refused, keeping the script', async () => {
    await start({
      'POST /api/video/update_text': () =>
        refuse(404, '没有找到这个作品（可能已删除，或不属于你）', 404),
    });
    storeDemoDraft();
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    next();
    expect(await screen.findByText('没有找到这个作品（可能已删除，或不属于你）')).toBeVisible();
    expect(location()).toBe(ROUTE);
    expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], ['小明：我们走吧。']]);
  });

  it('in a fresh tab reads the script from the work’s text (work_info)', async () => {
    await start({
      'GET /api/video/work_info': () =>
        ok(
          demoWorkDetail(31, {
            type: 8,
            title: '雨夜重逢',
            text: '小明：你好。\n小红：好久不见。\n\n小明：我们走吧。',
          }),
        ),
    });
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    await waitFor(() =>
      expect(script()).toEqual([['小明：你好。', '小红：好久不见。'], ['小明：我们走吧。']]),
    );
  });

  it('says so when the work in the address is not a drama', async () => {
    await start({ 'GET /api/video/work_info': () => ok(demoWorkDetail(31, { type: 0 })) });
    renderWithHost(<OperaCaptionStep />, { route: ROUTE });
    expect(
      await screen.findByText('作品加载失败：这个作品不是真人短剧，请从视频合成重新开始'),
    ).toBeVisible();
  });
});
