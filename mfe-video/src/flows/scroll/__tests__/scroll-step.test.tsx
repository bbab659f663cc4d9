import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { estimateNarrationMs, formatDurationMs, sessionStore } from '@kol/shared-sdk';
import { demoUser, ok, renderWithHost, settle, type FakeRoutes } from '@kol/shared-sdk/testing';
import {
  changeWork,
  videoBackendPerTest,
  workRoutes,
  type WorkState,
} from '../../../testing/backend';
import { PROVIDER_VOICE, VOICES, demoLimits, demoWorkDetail } from '../../../testing/fixtures';
import { scrollSession } from '../draft';
import { ScrollStep } from '../steps/scroll-step';

const backend = videoBackendPerTest();

const SCROLLER = demoUser({ templateIds: [0, 4] });
const TEXT = '清晨的风吹过湖面。\n岸边的柳树轻轻摇晃。';

/** Work 41 as the server holds it: made by save_text, saved over on its newest revision. */
let held: WorkState;

async function start(overrides: FakeRoutes = {}) {
  held = { work: demoWorkDetail(41, { type: 2 }) };
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainScrollCount: 2 })),
    ...workRoutes(held),
    'POST /api/video/gen_video': () => ok({ taskId: 'task-41' }),
    ...overrides,
  });
}

const location = () => screen.getByTestId('location').textContent;
/** By its text: role queries over the whole antd page are slow enough to time out on a busy machine. */
const generateButton = () => screen.findByText('生成视频（剩余 2 次）', {}, { timeout: 10_000 });
const textBox = () => screen.getByRole('textbox', { name: '滚屏文案' });

describe('/video/scroll', () => {
  it("takes 发送到视频's text and title (KOL_VIDEO_HANDOVER) into a new video, once", async () => {
    await start();
    scrollSession.set('scrollDraft', {
      workId: 41,
      title: '旧作',
      text: '旧作的文案',
      settings: { aspect: '16:9', speed: 1.2 },
    });
    sessionStore.set('videoHandover', { type: 2, text: TEXT, title: '湖边清晨' });
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    expect(textBox()).toHaveValue(TEXT);
    expect(screen.getByLabelText('作品标题')).toHaveValue('湖边清晨');
    expect(screen.getByText(/已带入文案（来自「发送到视频」/)).toBeVisible();
    await waitFor(() => expect(sessionStore.get('videoHandover')).toBeNull());
    // A new video (no work yet), with the settings last chosen.
    expect(scrollSession.get('scrollDraft')).toEqual({
      workId: null,
      title: '湖边清晨',
      text: TEXT,
      settings: { aspect: '16:9', speed: 1.2 },
    });
  });

  it('sends a user with no scrolling count back (the used-up notice instead of the form)', async () => {
    await start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainScrollCount: 0 })),
    });
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    expect(await screen.findByText('滚屏视频的生成次数已用完')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: '滚屏文案' })).not.toBeInTheDocument();
  });

  it('says there is no merge step and previews the scroll at the narration’s pace', async () => {
    await start();
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    expect(await screen.findByText(/滚屏视频没有合成步骤/)).toBeVisible();
    fireEvent.change(textBox(), { target: { value: TEXT } });
    const pace = screen.getByTestId('scroll-pace');
    expect(pace).toHaveTextContent('按 1.0× 语速约');
    const column = screen.getByTestId('scroll-column');
    const slow = parseFloat(column.style.animation.split(' ')[1] ?? '0');
    expect(slow).toBeGreaterThan(3);
    // Faster speech: the same text scrolls by in less time.
    fireEvent.keyDown(screen.getByRole('slider', { name: '语速' }), { key: 'End', keyCode: 35 });
    expect(screen.getByTestId('scroll-pace')).toHaveTextContent('按 2.0× 语速约');
    const fast = parseFloat(
      screen.getByTestId('scroll-column').style.animation.split(' ')[1] ?? '0',
    );
    expect(fast).toBeLessThan(slow * 0.6);
  });

  it('shows the video’s estimated length, following the text, the voice and the speed', async () => {
    await start({ 'GET /api/edit/tts_list': () => ok([...VOICES, PROVIDER_VOICE]) });
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    expect(await screen.findByText(/滚屏视频没有合成步骤/)).toBeVisible();
    // Nothing to say yet: no length.
    expect(screen.queryByTestId('video-estimate')).not.toBeInTheDocument();
    const shown = (ms: number) => `预计时长 约 ${formatDurationMs(ms)}`;
    const offline = estimateNarrationMs(TEXT, { voiceId: 'espeak-cmn-f' });
    fireEvent.change(textBox(), { target: { value: TEXT } });
    expect(screen.getByTestId('video-estimate')).toHaveTextContent(shown(offline));
    const longer = `${TEXT}\n远处传来几声鸟鸣，一天就这样安静地开始了。`;
    fireEvent.change(textBox(), { target: { value: longer } });
    expect(screen.getByTestId('video-estimate')).toHaveTextContent(
      shown(estimateNarrationMs(longer, { voiceId: 'espeak-cmn-f' })),
    );
    fireEvent.change(textBox(), { target: { value: TEXT } });

    // A service's voice speaks at its own rate.
    const provider = estimateNarrationMs(TEXT, { voiceId: PROVIDER_VOICE.voiceId });
    expect(shown(provider)).not.toBe(shown(offline));
    fireEvent.mouseDown(screen.getByLabelText('配音音色'));
    fireEvent.click(await screen.findByTitle(PROVIDER_VOICE.name));
    expect(screen.getByTestId('video-estimate')).toHaveTextContent(shown(provider));

    fireEvent.keyDown(screen.getByRole('slider', { name: '语速' }), { key: 'End', keyCode: 35 });
    const fast = estimateNarrationMs(TEXT, { voiceId: PROVIDER_VOICE.voiceId, speed: 2 });
    expect(fast).toBeLessThan(provider * 0.6);
    expect(screen.getByTestId('video-estimate')).toHaveTextContent(shown(fast));
  });

  it('refuses an empty text in Chinese and sends nothing', async () => {
    const server = await start();
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    fireEvent.click(await generateButton());
    expect(
      (await screen.findAllByText('请先填写滚屏文案', {}, { timeout: 5000 })).length,
    ).toBeGreaterThan(0);
    await settle();
    expect(screen.queryByRole('button', { name: '确认生成' })).not.toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(0);
  });

  it('saves the work (type 2, the chosen background), asks, renders and follows it', async () => {
    const server = await start();
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    fireEvent.change(textBox(), { target: { value: TEXT } });
    fireEvent.click(await screen.findByLabelText('深海波光'));
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    fireEvent.click(await generateButton());
    // Nothing is saved before the creator confirms: the work is made on 确认生成.
    fireEvent.click(await screen.findByText('确认生成', {}, { timeout: 10_000 }));
    await waitFor(() => expect(location()).toBe('/video/production?workId=41'));
    expect(server.calls('POST', '/api/video/save_text').map((c) => c.body)).toEqual([
      { type: 2, title: '清晨的风吹过湖面。', text: TEXT },
    ]);
    expect(server.calls('POST', '/api/video/save_video_info')[0]?.body).toEqual({
      workId: 41,
      revision: 1,
      // The voice picker chooses the list's first voice, as the server would.
      settings: { aspect: '16:9', speed: 1, backgroundMaterialId: -3, voiceId: 'espeak-cmn-f' },
    });
    expect(server.calls('POST', '/api/video/gen_video').map((c) => c.body)).toEqual([
      { workId: 41 },
    ]);
  });

  it('makes no work when the creator cancels in the confirmation', async () => {
    const server = await start();
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    fireEvent.change(textBox(), { target: { value: TEXT } });
    fireEvent.click(await generateButton());
    fireEvent.click(await screen.findByText('取 消', {}, { timeout: 10_000 }));
    await waitFor(() => expect(screen.queryByText('确认生成')).not.toBeInTheDocument());
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(0);
    expect(server.calls('POST', '/api/video/save_video_info')).toHaveLength(0);
    expect(location()).toBe('/video/scroll');
  });

  it('keeps what was typed across a reload, and reads the work back in a fresh tab', async () => {
    await start();
    const first = renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    fireEvent.change(textBox(), { target: { value: TEXT } });
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    first.unmount();
    renderWithHost(<ScrollStep />, { route: '/video/scroll', user: SCROLLER });
    expect(textBox()).toHaveValue(TEXT);
    expect(screen.getByLabelText('横屏 16:9')).toBeChecked();
  });

  it('reopens a saved work from the address when the session has none', async () => {
    await start({
      'GET /api/video/work_info': () =>
        ok(
          demoWorkDetail(41, {
            type: 2,
            title: '湖边',
            text: TEXT,
            settings: { aspect: '16:9', speed: 1.5, backgroundMaterialId: -3 },
          }),
        ),
    });
    renderWithHost(<ScrollStep />, { route: '/video/scroll?workId=41', user: SCROLLER });
    expect(await screen.findByRole('textbox', { name: '滚屏文案' })).toHaveValue(TEXT);
    expect(screen.getByTestId('scroll-pace')).toHaveTextContent('按 1.5× 语速约');
    expect(scrollSession.get('scrollDraft')).toMatchObject({ workId: 41, title: '湖边' });
  });

  it('saves a reopened work on the revision it read (kept in KOL_SCROLL_DRAFT), a change elsewhere merged in', async () => {
    const server = await start();
    held.work = { ...held.work, title: '湖边', text: TEXT, revision: 3 };
    const first = renderWithHost(<ScrollStep />, {
      route: '/video/scroll?workId=41',
      user: SCROLLER,
    });
    expect(await screen.findByRole('textbox', { name: '滚屏文案' })).toHaveValue(TEXT);
    expect(scrollSession.get('scrollDraft')).toMatchObject({ saved: { revision: 3 } });
    fireEvent.change(textBox(), { target: { value: `${TEXT}\n远处传来钟声。` } });
    first.unmount();
    // Another tab renamed the work meanwhile.
    changeWork(held, () => ({ title: '湖边的清晨' }));
    renderWithHost(<ScrollStep />, { route: '/video/scroll?workId=41', user: SCROLLER });
    fireEvent.click(await generateButton());
    // Saved on 确认生成, as a new work is made there: 取消 leaves the work as it was.
    fireEvent.click(await screen.findByText('确认生成', {}, { timeout: 10_000 }));
    await waitFor(() => expect(location()).toBe('/video/production?workId=41'));
    expect(server.calls('POST', '/api/video/update_text').map((call) => call.body)).toEqual([
      { workId: 41, revision: 3, title: '湖边', text: `${TEXT}\n远处传来钟声。` },
      { workId: 41, revision: 4, title: '湖边的清晨', text: `${TEXT}\n远处传来钟声。` },
    ]);
    expect(held.work).toMatchObject({ title: '湖边的清晨', text: `${TEXT}\n远处传来钟声。` });
    expect(server.calls('POST', '/api/video/save_text')).toHaveLength(0);
    expect(server.calls('POST', '/api/video/save_video_info').at(-1)?.body).toMatchObject({
      workId: 41,
      revision: 5,
    });
    expect(server.calls('POST', '/api/video/gen_video').map((c) => c.body)).toEqual([
      { workId: 41 },
    ]);
  });
});
