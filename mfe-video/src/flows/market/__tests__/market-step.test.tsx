import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  estimateMarketMs,
  findMarketTemplate,
  formatDurationMs,
  marketNarration,
  sessionStore,
} from '@kol/shared-sdk';
import { demoUser, ok, renderWithHost, type FakeRoutes } from '@kol/shared-sdk/testing';
import { videoBackendPerTest, workRoutes } from '../../../testing/backend';
import { PROVIDER_VOICE, VOICES, demoLimits, demoWorkDetail } from '../../../testing/fixtures';
import { marketSession } from '../draft';
import { MarketStep } from '../steps/market-step';

const backend = videoBackendPerTest();

const PATH = '/video/market/:segment?/:id?';
const MARKETER = demoUser({ templateIds: [0, 6] });
const WAIT = { timeout: 10_000 };

async function start(overrides: FakeRoutes = {}) {
  let uploaded = 0;
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainMarketCount: 3 })),
    'POST /api/file/upload_image': () => {
      uploaded += 1;
      return ok({ url: `/uploads/picture-${uploaded}.png` }, 200);
    },
    ...workRoutes({ work: demoWorkDetail(51, { type: 4 }) }),
    'POST /api/video/gen_video': () => ok({ taskId: 'task-51' }),
    ...overrides,
  });
}

/** Where a picture is shown from (the SDK's mediaUrl may put the server's origin before it). */
const srcOf = (alt: string) => screen.getByAltText(alt).getAttribute('src') ?? '';
const location = () => screen.getByTestId('location').textContent;

/** A file of `bytes` bytes (its size stated, not allocated, for the large ones). */
function fileOf(name: string, type: string, bytes = 2048): File {
  const file = new File([new Uint8Array(Math.min(bytes, 4096))], name, { type });
  if (bytes > 4096) Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

async function choose(...files: File[]) {
  const input = screen.getByLabelText('选择图片');
  await act(async () => {
    fireEvent.change(input, { target: { files } });
  });
}

const render = (route: string) =>
  renderWithHost(<MarketStep />, { route, path: PATH, user: MARKETER });

describe('/video/market', () => {
  it('sends a user with no marketing count back (the used-up notice instead of the flow)', async () => {
    await start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainMarketCount: 0 })),
    });
    render('/video/market');
    expect(await screen.findByText('营销视频的生成次数已用完', {}, WAIT)).toBeVisible();
    expect(screen.queryByText('好物种草')).not.toBeInTheDocument();
  });

  it('makes a video from a template: fields checked, two pictures in order, the end card, render', async () => {
    const server = await start();
    render('/video/market');
    expect(await screen.findByAltText('好物种草的封面', {}, WAIT)).toBeVisible();
    fireEvent.click(screen.getByText('下一步：填写内容'));
    expect((await screen.findAllByText('请先选择营销模板')).length).toBeGreaterThan(0);
    expect(location()).toBe('/video/market');

    fireEvent.click(screen.getByLabelText('好物种草'));
    fireEvent.click(screen.getByText('下一步：填写内容'));
    await waitFor(() => expect(location()).toBe('/video/market/content'));
    // The call to action is asked on the last step, not among the fields.
    expect(screen.queryByRole('textbox', { name: '行动号召' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('下一步：图片'));
    expect(
      (await screen.findAllByText('请填写「产品名称」、「核心卖点」（模板「好物种草」的必填项）'))
        .length,
    ).toBeGreaterThan(0);
    expect(location()).toBe('/video/market/content');
    fireEvent.change(screen.getByLabelText('产品名称'), { target: { value: '云朵枕头' } });
    fireEvent.change(screen.getByLabelText('核心卖点'), {
      target: { value: '柔软透气，护颈支撑' },
    });
    fireEvent.click(screen.getByText('下一步：图片'));
    await waitFor(() => expect(location()).toBe('/video/market/pictures'));

    // Refused in the browser, each naming the file and why; nothing is sent.
    await choose(fileOf('clip.mp4', 'video/mp4'));
    expect(await screen.findByText(/「clip\.mp4」不是图片/)).toBeInTheDocument();
    await choose(fileOf('huge.png', 'image/png', 6 * 1024 * 1024));
    expect(await screen.findByText('「huge.png」无法上传：图片不能超过 5 MB')).toBeInTheDocument();
    expect(server.calls('POST', '/api/file/upload_image')).toHaveLength(0);

    await choose(fileOf('red.png', 'image/png'), fileOf('green.png', 'image/png'));
    expect(await screen.findByAltText('第 2 张图片', {}, WAIT)).toBeInTheDocument();
    expect(srcOf('第 1 张图片')).toMatch(/\/uploads\/picture-1\.png$/);
    fireEvent.click(screen.getByLabelText('下移第 1 张图片'));
    expect(srcOf('第 1 张图片')).toMatch(/\/uploads\/picture-2\.png$/);

    fireEvent.click(screen.getByText('下一步：配音与片尾'));
    await waitFor(() => expect(location()).toBe('/video/market/voice'));
    const card = screen.getByRole('img', { name: '片尾预览' });
    expect(within(card).getByText('云朵枕头')).toBeVisible();
    expect(within(card).getByText('立即了解')).toBeVisible();
    fireEvent.change(screen.getByLabelText('行动号召'), { target: { value: '马上抢购' } });
    expect(within(card).getByText('马上抢购')).toBeVisible();

    fireEvent.click(await screen.findByText('生成视频（剩余 3 次）', {}, WAIT));
    fireEvent.click(await screen.findByText('确认生成', {}, WAIT));
    await waitFor(() => expect(location()).toBe('/video/production?workId=51'), WAIT);
    expect(server.calls('POST', '/api/video/save_text').map((c) => c.body)).toEqual([
      { type: 4, title: '云朵枕头', text: '云朵枕头' },
    ]);
    // Emptied, so the server speaks the template's script from the fields.
    expect(server.calls('POST', '/api/video/update_text').map((c) => c.body)).toEqual([
      { workId: 51, revision: 1, title: '云朵枕头', text: '' },
    ]);
    // The voice is the list's first once it has loaded (else the server's default): not asserted.
    expect(server.calls('POST', '/api/video/save_video_info')[0]?.body).toMatchObject({
      workId: 51,
      revision: 2,
      settings: {
        aspect: '9:16',
        speed: 1,
        callToAction: '马上抢购',
        imageUrls: ['/uploads/picture-2.png', '/uploads/picture-1.png'],
        templateId: 1,
        templateFields: { product: '云朵枕头', sellingPoints: '柔软透气，护颈支撑' },
      },
    });
    expect(server.calls('POST', '/api/video/gen_video').map((c) => c.body)).toEqual([
      { workId: 51 },
    ]);
  });

  it('shows the video’s estimated length, following the fields, the call to action, the voice and the speed', async () => {
    await start({ 'GET /api/edit/tts_list': () => ok([...VOICES, PROVIDER_VOICE]) });
    const fields = { product: '云朵枕头', sellingPoints: '柔软透气，护颈支撑' };
    sessionStore.set('templateId', 1);
    sessionStore.set('templateContent', fields);
    render('/video/market/content');
    const template = findMarketTemplate(1);
    if (!template) throw new Error('no template 1');
    /** What the page should show: the template's script, then the call over the end card. */
    const shown = (
      input: { fields: Record<string, string>; callToAction?: string },
      voice: { voiceId?: string; speed?: number } = {},
    ) =>
      `预计时长 约 ${formatDurationMs(
        estimateMarketMs(marketNarration({ template, text: '', ...input }), {
          voiceId: 'espeak-cmn-f',
          ...voice,
        }),
      )}`;
    const estimate = () => screen.getByTestId('video-estimate');
    expect(await screen.findByTestId('video-estimate', {}, WAIT)).toHaveTextContent(
      shown({ fields }),
    );

    const more = { ...fields, sellingPoints: '柔软透气，护颈支撑，可以机洗，四季通用，不塌陷' };
    expect(shown({ fields: more })).not.toBe(shown({ fields }));
    fireEvent.change(screen.getByLabelText('核心卖点'), {
      target: { value: more.sellingPoints },
    });
    expect(estimate()).toHaveTextContent(shown({ fields: more }));

    fireEvent.click(screen.getByText('下一步：图片'));
    fireEvent.click(await screen.findByText('下一步：配音与片尾', {}, WAIT));
    await waitFor(() => expect(location()).toBe('/video/market/voice'));
    // The end card lasts as long as its call is spoken.
    const call = '限时特价，今晚十二点前下单还送同款枕套一对';
    expect(shown({ fields: more, callToAction: call })).not.toBe(shown({ fields: more }));
    fireEvent.change(screen.getByLabelText('行动号召'), { target: { value: call } });
    expect(estimate()).toHaveTextContent(shown({ fields: more, callToAction: call }));

    const provider = { voiceId: PROVIDER_VOICE.voiceId };
    const filled = { fields: more, callToAction: call };
    expect(shown(filled, provider)).not.toBe(shown(filled));
    fireEvent.mouseDown(screen.getByLabelText('配音音色'));
    fireEvent.click(await screen.findByTitle(PROVIDER_VOICE.name));
    expect(estimate()).toHaveTextContent(shown(filled, provider));

    fireEvent.keyDown(screen.getByRole('slider', { name: '语速' }), { key: 'Home', keyCode: 36 });
    expect(estimate()).toHaveTextContent(shown(filled, { ...provider, speed: 0.5 }));
  });

  it('removes a picture only after asking', async () => {
    await start();
    marketSession.set('marketDraft', {
      workId: null,
      settings: { aspect: '9:16', imageUrls: ['/uploads/a.png', '/uploads/b.png'] },
    });
    render('/video/market/pictures');
    fireEvent.click(await screen.findByLabelText('删除第 1 张图片', {}, WAIT));
    fireEvent.click(await screen.findByText('删除图片', { selector: 'button span' }, WAIT));
    await waitFor(() => expect(screen.queryByAltText('第 2 张图片')).not.toBeInTheDocument());
    expect(srcOf('第 1 张图片')).toMatch(/\/uploads\/b\.png$/);
  });

  it('keeps the step and what was typed across a reload', async () => {
    await start();
    const first = render('/video/market');
    fireEvent.click(await screen.findByLabelText('小说推广', {}, WAIT));
    // A template without a cover picture gets one drawn with its name.
    expect(screen.getByLabelText('小说推广的封面')).toHaveTextContent('小说推广');
    fireEvent.click(screen.getByText('下一步：填写内容'));
    await waitFor(() => expect(location()).toBe('/video/market/content'));
    fireEvent.change(screen.getByLabelText('书名'), { target: { value: '雪中悍刀行' } });
    first.unmount();
    render('/video/market/content');
    expect(await screen.findByLabelText('书名', {}, WAIT)).toHaveValue('雪中悍刀行');
    expect(sessionStore.get('templateId')).toBe(2);
  });

  it('reopens a step of an existing work from the address (a fresh tab reads the work)', async () => {
    await start({
      'GET /api/video/work_info': () =>
        ok(
          demoWorkDetail(51, {
            type: 4,
            settings: {
              aspect: '9:16',
              templateId: 1,
              templateFields: { product: '云朵枕头', sellingPoints: '柔软' },
              imageUrls: ['/uploads/x.png'],
              callToAction: '马上抢购',
            },
          }),
        ),
    });
    render('/video/market/voice/51');
    const card = await screen.findByRole('img', { name: '片尾预览' }, WAIT);
    expect(within(card).getByText('云朵枕头')).toBeVisible();
    expect(within(card).getByText('马上抢购')).toBeVisible();
    expect(screen.getByText(/1 张图片按顺序在前/)).toBeInTheDocument();
  });
});
