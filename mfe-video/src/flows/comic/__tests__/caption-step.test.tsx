import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sessionStore, type Shot, type UpdateTextBody } from '@kol/shared-sdk';
import {
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeBackend,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import {
  changeWork,
  videoBackendPerTest,
  workRoutes,
  type WorkState,
} from '../../../testing/backend';
import { demoShot, demoWorkDetail } from '../../../testing/fixtures';
import { srtToCaptions } from '../srt';
import { CaptionStep } from '../steps/caption-step';

const backend = videoBackendPerTest();

const ROUTE = '/video/caption?videoType=0&workId=21';

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'POST /api/video/update_text': ({ body }) => ok(demoWorkDetail(21, body as object)),
    ...overrides,
  });
}

const caption = (n: number) => screen.getByLabelText(`第 ${n} 个分镜的字幕`);
const captions = () =>
  screen
    .getAllByLabelText(/^第 \d+ 个分镜的字幕$/)
    .map((area) => (area as HTMLTextAreaElement).value);
const summary = () => screen.getByTestId('caption-summary').textContent;

describe('/video/caption', () => {
  it('splits the text into shots as the server does: up to 3 sentences, 60 characters', async () => {
    await start();
    sessionStore.set('videoContent', '第一句。第二句。第三句。第四句。');
    renderWithHost(<CaptionStep />, { route: ROUTE });
    expect(captions()).toEqual(['第一句。第二句。第三句。', '第四句。']);
    expect(summary()).toMatch(/^共 2 个分镜 · 预计时长 约 \d+秒$/);
  });

  it('edits a caption; the estimated length and the remembered values follow', async () => {
    await start();
    sessionStore.set('videoContent', '雨下着。');
    renderWithHost(<CaptionStep />, { route: ROUTE });
    const before = summary();
    fireEvent.change(caption(1), {
      target: { value: '雨下着，屋檐下的少年抬头看着灰色的天空，想起了很久以前的那个约定。' },
    });
    expect(summary()).not.toBe(before);
    expect(sessionStore.get('videoContent')).toBe(
      '雨下着，屋檐下的少年抬头看着灰色的天空，想起了很久以前的那个约定。',
    );
    expect(srtToCaptions(sessionStore.get('srtContent') ?? '')).toEqual([
      '雨下着，屋檐下的少年抬头看着灰色的天空，想起了很久以前的那个约定。',
    ]);
  });

  it('merges with the next, splits at the cursor, reorders and deletes (after confirming)', async () => {
    await start();
    sessionStore.set('videoContent', '甲。\n乙。\n丙。');
    sessionStore.set(
      'srtContent',
      '1\n00:00:00,000 --> 00:00:01,000\n甲。\n\n2\n00:00:01,000 --> 00:00:02,000\n乙。\n\n3\n00:00:02,000 --> 00:00:03,000\n丙。\n',
    );
    renderWithHost(<CaptionStep />, { route: ROUTE });
    expect(captions()).toEqual(['甲。', '乙。', '丙。']);

    fireEvent.click(screen.getByLabelText('把第 1 个分镜与下一个合并'));
    expect(captions()).toEqual(['甲。乙。', '丙。']);

    const first = caption(1) as HTMLTextAreaElement;
    first.setSelectionRange(2, 2);
    fireEvent.click(screen.getByLabelText('在光标处拆分第 1 个分镜'));
    expect(captions()).toEqual(['甲。', '乙。', '丙。']);

    fireEvent.click(screen.getByLabelText('下移第 1 个分镜'));
    expect(captions()).toEqual(['乙。', '甲。', '丙。']);
    fireEvent.click(screen.getByLabelText('上移第 3 个分镜'));
    expect(captions()).toEqual(['乙。', '丙。', '甲。']);

    fireEvent.click(screen.getByLabelText('删除第 2 个分镜'));
    expect(captions()).toHaveLength(3);
    fireEvent.click(await screen.findByText(/^删\s*除$/, { selector: 'button span' }));
    await waitFor(() => expect(captions()).toEqual(['乙。', '甲。']));
    expect(sessionStore.get('videoContent')).toBe('乙。\n甲。');
  });

  it('asks for the cursor before splitting', async () => {
    await start();
    sessionStore.set('videoContent', '甲乙丙。');
    renderWithHost(<CaptionStep />, { route: ROUTE });
    (caption(1) as HTMLTextAreaElement).setSelectionRange(0, 0);
    fireEvent.click(screen.getByLabelText('在光标处拆分第 1 个分镜'));
    expect(await screen.findByText('请先把光标放在字幕中间要拆分的位置')).toBeVisible();
    expect(captions()).toEqual(['甲乙丙。']);
  });

  it('keeps the edited shots across a reload (KOL_SRT_CONTENT)', async () => {
    await start();
    sessionStore.set('videoContent', '第一句。第二句。');
    const first = renderWithHost(<CaptionStep />, { route: ROUTE });
    fireEvent.change(caption(1), { target: { value: '改过的第一句。' } });
    first.unmount();
    renderWithHost(<CaptionStep />, { route: ROUTE });
    expect(captions()).toEqual(['改过的第一句。']);
  });

  it('highlights flagged words with their replacement and replaces them on request', async () => {
    await start({
      'GET /api/edit/get_vocabulary': () =>
        ok([
          { word: '最好', replacement: '很好' },
          { word: '全网第一', replacement: '广受好评' },
          { word: '第一', replacement: '领先' },
        ]),
    });
    sessionStore.set('videoContent', '这是全网第一的书。\n最好看的故事，最好别错过。');
    renderWithHost(<CaptionStep />, { route: ROUTE });
    expect(await screen.findByText('发现 3 处平台可能限流的词，建议替换后再生成')).toBeVisible();
    expect(screen.getByLabelText('把「全网第一」替换为「广受好评」')).toBeVisible();
    expect(screen.queryByLabelText('把「第一」替换为「领先」')).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('把「最好」替换为「很好」'));
    // Two short sentences make one shot, as on the server.
    expect(captions()).toEqual(['这是全网第一的书。很好看的故事，很好别错过。']);
    fireEvent.click(screen.getByText(/^全部替换$/));
    expect(captions()).toEqual(['这是广受好评的书。很好看的故事，很好别错过。']);
    expect(screen.queryByText(/平台可能限流的词/)).not.toBeInTheDocument();
  });

  it('saves the text and shots (update_text), keeping what a shot already had, then opens the roles', async () => {
    const kept: Shot = demoShot(0, {
      caption: '第一句。',
      imagePrompt: '雨夜的山门',
      imageUrl: '/media/7/t/image.jpg',
    });
    const server = await start({
      'GET /api/video/work_info': () => ok(demoWorkDetail(21, { shots: [kept] })),
    });
    sessionStore.set('videoContent', '第一句。\n第二句。');
    sessionStore.set(
      'srtContent',
      '1\n00:00:00,000 --> 00:00:01,000\n第一句。\n\n2\n00:00:01,000 --> 00:00:02,000\n第二句。\n',
    );
    renderWithHost(<CaptionStep />, { route: ROUTE });
    fireEvent.click(screen.getByText('下一步：角色'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/video/character?videoType=0&workId=21',
      ),
    );
    expect(server.calls('POST', '/api/video/update_text').map((call) => call.body)).toEqual([
      {
        workId: 21,
        revision: 1,
        text: '第一句。\n第二句。',
        shots: [
          { ...kept, index: 0 },
          demoShot(1, { caption: '第二句。', imagePrompt: '第二句。' }),
        ],
      },
    ]);
  });

  it('refuses an empty caption in Chinese and sends nothing', async () => {
    const server = await start();
    sessionStore.set('videoContent', '甲。\n乙。');
    sessionStore.set(
      'srtContent',
      '1\n00:00:00,000 --> 00:00:01,000\n甲。\n\n2\n00:00:01,000 --> 00:00:02,000\n乙。\n',
    );
    renderWithHost(<CaptionStep />, { route: ROUTE });
    fireEvent.change(caption(2), { target: { value: '' } });
    fireEvent.click(screen.getByText('下一步：角色'));
    expect(
      (await screen.findAllByText('第 2 个分镜的字幕为空，请填写或删除这个分镜')).length,
    ).toBeGreaterThan(0);
    await settle();
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(0);
  });

  it('shows the server’s refusal and keeps the captions', async () => {
    await start({
      'POST /api/video/update_text': () => refuse(400, '「分镜文案」不能超过 2000 个字符', 400),
    });
    sessionStore.set('videoContent', '甲。');
    renderWithHost(<CaptionStep />, { route: ROUTE });
    fireEvent.change(caption(1), { target: { value: '甲乙。' } });
    fireEvent.click(screen.getByText('下一步：角色'));
    expect(await screen.findByText('「分镜文案」不能超过 2000 个字符')).toBeVisible();
    expect(captions()).toEqual(['甲乙。']);
    expect(screen.getByTestId('location')).toHaveTextContent(ROUTE);
  });

  it('says so when the flagged-word list cannot load', async () => {
    await start({ 'GET /api/edit/get_vocabulary': () => refuse(500, '词表服务不可用') });
    sessionStore.set('videoContent', '甲。');
    renderWithHost(<CaptionStep />, { route: ROUTE });
    expect(
      await screen.findByText('违禁词表加载失败（词表服务不可用），生成时仍会检查'),
    ).toBeVisible();
  });

  it('asks for the configuration first when there is no work yet', async () => {
    await start();
    sessionStore.set('videoContent', '甲。');
    renderWithHost(<CaptionStep />, { route: '/video/caption' });
    expect(screen.getByText('还没有保存视频配置')).toBeVisible();
    expect(screen.getByText('下一步：角色').closest('button')).toBeDisabled();
  });

  it('lays out for a phone under /m and opens the phone pages next', async () => {
    await start();
    sessionStore.set('videoContent', '甲。');
    const { container } = renderWithHost(<CaptionStep />, {
      route: '/m/video/caption?videoType=0&workId=21',
    });
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
    // The action bar is one row: each action as wide as its text, the primary one taking the
    // rest; none is a block button (a line of its own).
    const bar = screen.getByText('下一步：角色').closest<HTMLElement>('[role="toolbar"]');
    expect(bar).toHaveAccessibleName('页面操作');
    const [back, resplit, next] = within(bar as HTMLElement).getAllByRole('button');
    expect(bar?.querySelector('.ant-btn-block')).toBeNull();
    expect(back).toHaveTextContent('上一步');
    expect(back).toHaveStyle({ flex: '0 0 auto' });
    expect(resplit).toHaveStyle({ flex: '0 0 auto' });
    expect(next).toHaveTextContent('下一步：角色');
    expect(next).toHaveStyle({ flex: '1 1 auto' });
    fireEvent.click(screen.getByText('下一步：角色'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/m/video/character?videoType=0&workId=21',
      ),
    );
  });

  describe('saves based on the revision the page loaded', () => {
    const SRT =
      '1\n00:00:00,000 --> 00:00:01,000\n甲。\n\n2\n00:00:01,000 --> 00:00:02,000\n乙。\n';

    /** Work 21 as the server holds it at revision 5, its shots 甲。 and 乙。 */
    async function startHeld() {
      const state: WorkState = {
        work: demoWorkDetail(21, {
          text: '甲。\n乙。',
          shots: [
            demoShot(0, { caption: '甲。', imagePrompt: '甲的画面' }),
            demoShot(1, { caption: '乙。', imagePrompt: '乙的画面' }),
          ],
          revision: 5,
        }),
      };
      const server = await start(workRoutes(state));
      sessionStore.set('videoContent', '甲。\n乙。');
      sessionStore.set('srtContent', SRT);
      renderWithHost(<CaptionStep />, { route: ROUTE });
      await waitFor(() => expect(server.calls('GET', '/api/video/work_info')).toHaveLength(1));
      return { state, server };
    }

    const saves = (server: FakeBackend) =>
      server.calls('POST', '/api/video/update_text').map((call) => call.body as UpdateTextBody);

    it('saves on the revision it loaded, merging a picture drawn since, without reading the work again first', async () => {
      const { state, server } = await startHeld();
      fireEvent.change(caption(1), { target: { value: '甲甲。' } });
      // The server draws shot 2's picture meanwhile.
      changeWork(state, (work) => ({
        shots: work.shots.map((shot) =>
          shot.index === 1 ? { ...shot, imageUrl: '/media/7/p/image.jpg' } : shot,
        ),
      }));
      fireEvent.click(screen.getByText('下一步：角色'));
      await waitFor(() =>
        expect(screen.getByTestId('location')).toHaveTextContent(
          '/video/character?videoType=0&workId=21',
        ),
      );
      const [first, merged] = saves(server);
      expect(first?.revision).toBe(5);
      expect(merged?.revision).toBe(6);
      // Read once on arrival and once for the merge: never just before the first save.
      expect(server.calls('GET', '/api/video/work_info')).toHaveLength(2);
      expect(state.work.text).toBe('甲甲。\n乙。');
      expect(
        state.work.shots.map((shot) => [shot.caption, shot.imagePrompt, shot.imageUrl]),
      ).toEqual([
        ['甲甲。', '甲甲。', ''],
        ['乙。', '乙的画面', '/media/7/p/image.jpg'],
      ]);
    });

    it('asks when the same caption was changed elsewhere, keeping the typed captions, and saves them on request', async () => {
      const { state, server } = await startHeld();
      fireEvent.change(caption(1), { target: { value: '甲甲。' } });
      changeWork(state, (work) => ({
        text: '丙。\n乙。',
        shots: work.shots.map((shot) =>
          shot.index === 0 ? { ...shot, caption: '丙。', imagePrompt: '丙。' } : shot,
        ),
      }));
      fireEvent.click(screen.getByText('下一步：角色'));
      expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
      expect(screen.getByText('载入最新内容')).toBeInTheDocument();
      expect(captions()).toEqual(['甲甲。', '乙。']);
      expect(screen.getByTestId('location')).toHaveTextContent(ROUTE);
      fireEvent.click(screen.getByText('保留我的修改'));
      await waitFor(() =>
        expect(screen.getByTestId('location')).toHaveTextContent('/video/character'),
      );
      expect(saves(server).map((body) => body.revision)).toEqual([5, 6]);
      expect(state.work.text).toBe('甲甲。\n乙。');
    });

    it('shows the captions saved elsewhere when the person chooses 载入最新内容', async () => {
      const { state, server } = await startHeld();
      fireEvent.change(caption(1), { target: { value: '甲甲。' } });
      changeWork(state, (work) => ({
        text: '丙。\n乙。',
        shots: work.shots.map((shot) =>
          shot.index === 0 ? { ...shot, caption: '丙。', imagePrompt: '丙。' } : shot,
        ),
      }));
      fireEvent.click(screen.getByText('下一步：角色'));
      fireEvent.click(await screen.findByText('载入最新内容'));
      await waitFor(() => expect(captions()).toEqual(['丙。', '乙。']));
      expect(saves(server)).toHaveLength(1);
      expect(state.work.text).toBe('丙。\n乙。');
      expect(screen.getByTestId('location')).toHaveTextContent(ROUTE);
    });
  });
});
