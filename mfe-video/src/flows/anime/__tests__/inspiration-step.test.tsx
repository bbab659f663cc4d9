import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { sessionStore } from '@kol/shared-sdk';
import { ok, refuse, renderWithHost, settle, type FakeRoutes } from '@kol/shared-sdk/testing';
import { animeUser } from '../../../testing/anime';
import { videoBackendPerTest } from '../../../testing/backend';
import { AnimeInspirationStep } from '../steps/inspiration-step';

const backend = videoBackendPerTest();

const SCRIPT = {
  lines: [
    { speaker: '旁白', text: '夜里，林舟走进客栈。' },
    { speaker: '林舟', text: '掌柜，还有房吗？' },
  ],
  engine: '本地改编（离线规则）',
  note: null,
};

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'POST /api/video/anime_script': () => ok(SCRIPT),
    'POST /api/video/save_text': () => ok({ workId: 31 }),
    ...overrides,
  });
}

const story = () => screen.getByLabelText('故事或创意');
const location = () => screen.getByTestId('location').textContent;
const render = (route = '/video/animeInspiration') =>
  renderWithHost(<AnimeInspirationStep />, { route, user: animeUser() });

describe('/video/animeInspiration', () => {
  it('adapts the story with the chosen genre and length, saves the script as the work, opens the script', async () => {
    const server = await start();
    render();
    fireEvent.change(story(), {
      target: { value: '夜里，林舟走进客栈。林舟说：“掌柜，还有房吗？”' },
    });
    fireEvent.change(screen.getByLabelText('作品标题'), { target: { value: '客栈' } });
    fireEvent.click(screen.getByLabelText('古风'));
    fireEvent.click(screen.getByLabelText('中（约 2 分钟）'));
    fireEvent.click(screen.getByRole('button', { name: '改编成剧本' }));

    await waitFor(() => expect(location()).toBe('/video/animeCaption?videoType=11&workId=31'));
    expect(server.calls('POST', '/api/video/anime_script').map((call) => call.body)).toEqual([
      { text: '夜里，林舟走进客栈。林舟说：“掌柜，还有房吗？”', length: 'medium', genre: '古风' },
    ]);
    expect(server.calls('POST', '/api/video/save_text').map((call) => call.body)).toEqual([
      { type: 11, title: '客栈', text: '旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有房吗？' },
    ]);
  });

  it("takes 发送到视频's text and title (KOL_VIDEO_HANDOVER) as the story and the title", async () => {
    const server = await start();
    sessionStore.set('videoHandover', {
      type: 11,
      text: '夜里，林舟走进客栈。',
      title: '星河旧梦 第一章 醒来',
    });
    render();
    expect(story()).toHaveValue('夜里，林舟走进客栈。');
    expect(screen.getByLabelText('作品标题')).toHaveValue('星河旧梦 第一章 醒来');
    expect(screen.getByText(/已带入文案（来自「发送到视频」/)).toBeVisible();
    await waitFor(() => expect(sessionStore.get('videoHandover')).toBeNull());
    expect(sessionStore.get('originalContent')).toBe('夜里，林舟走进客栈。');
    fireEvent.click(screen.getByRole('button', { name: '改编成剧本' }));
    await waitFor(() => expect(location()).toBe('/video/animeCaption?videoType=11&workId=31'));
    expect(server.calls('POST', '/api/video/save_text')[0]?.body).toMatchObject({
      type: 11,
      title: '星河旧梦 第一章 醒来',
    });
  });

  it('keeps the story, the genre and the length over a reload', async () => {
    await start();
    const first = render();
    fireEvent.change(story(), { target: { value: '雨夜重逢' } });
    fireEvent.click(screen.getByLabelText('悬疑'));
    const address = location() ?? '';
    first.unmount();
    render(address);
    expect(story()).toHaveValue('雨夜重逢');
    // antd's mark on the label: in jsdom all antd radio groups share one input name.
    expect(screen.getByLabelText('悬疑').closest('label')?.className).toMatch(/-wrapper-checked/);
    expect(sessionStorage.getItem('KOL_ORIGINAL_CONTENT')).toBe('"雨夜重逢"');
  });

  it.each([
    ['', '请先填写故事或创意'],
    ['！！……', '故事或创意中没有文字，请填写内容'],
    ['字'.repeat(12_001), '故事或创意不能超过 12000 字（当前 12001 字），请删减后再改编'],
  ])('refuses story #%# with a Chinese message and sends nothing', async (text, problem) => {
    const server = await start();
    render();
    fireEvent.change(story(), { target: { value: text } });
    fireEvent.click(screen.getByRole('button', { name: '改编成剧本' }));
    expect((await screen.findAllByText(problem)).length).toBeGreaterThan(0);
    await settle();
    expect(server.calls('POST', '/api/video/anime_script')).toHaveLength(0);
    expect(story()).toHaveValue(text);
  });

  it('says why the adaptation failed and keeps the story', async () => {
    await start({
      'POST /api/video/anime_script': () => refuse(400, '「故事或创意」中没有可以改编成台词的文字'),
    });
    render();
    fireEvent.change(story(), { target: { value: '一段故事' } });
    fireEvent.click(screen.getByRole('button', { name: '改编成剧本' }));
    expect(
      await screen.findByText('改编失败：「故事或创意」中没有可以改编成台词的文字'),
    ).toBeInTheDocument();
    expect(story()).toHaveValue('一段故事');
    expect(location()).toBe('/video/animeInspiration');
  });

  it('asks before an adaptation replaces the script of the work in the address', async () => {
    const server = await start();
    render('/video/animeInspiration?videoType=11&workId=31');
    fireEvent.change(story(), { target: { value: '另一个故事' } });
    fireEvent.click(screen.getByRole('button', { name: '重新改编成剧本' }));
    expect(await screen.findByText('重新改编剧本？')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '重新改编' }));
    await waitFor(() => expect(location()).toBe('/video/animeCaption?videoType=11&workId=31'));
    expect(server.calls('POST', '/api/video/save_text')[0]?.body).toMatchObject({ workId: 31 });
  });
});
