import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ok, refuse, renderWithHost, settle, type FakeRoutes } from '@kol/shared-sdk/testing';
import { videoBackendPerTest, workRoutes } from '../../../testing/backend';
import { demoLimits, demoWorkDetail } from '../../../testing/fixtures';
import { demoScene, storeDemoDraft } from '../../../testing/opera';
import { operaSession } from '../draft';
import { OperaSceneStep } from '../steps/scene-step';

const backend = videoBackendPerTest();

const ROUTE = '/video/operaScene?workId=31';

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainRealPeopleVideoCount: 2 })),
    'POST /api/file/upload_image': () => ok({ url: '/uploads/photo-1.png' }, 200),
    'POST /api/file/upload_media': () =>
      ok(
        { url: '/uploads/clip-1.mp4', assetId: 5, kind: 'video', durationMs: 3000, name: 'a' },
        200,
      ),
    ...workRoutes({ work: demoWorkDetail(31, { type: 8 }) }),
    'POST /api/video/gen_video': () => ok({ taskId: 'task-9' }),
    ...overrides,
  });
}

const scene = (n: number) => screen.getByRole('group', { name: `场景 ${n}` });
const location = () => screen.getByTestId('location').textContent;

/** A file of `bytes` bytes (its size stated, not allocated, for the large ones). */
function fileOf(name: string, type: string, bytes = 2048): File {
  const file = new File([new Uint8Array(Math.min(bytes, 4096))], name, { type });
  if (bytes > 4096) Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

/** Chooses a file for a scene, as the file dialog would. */
async function choose(n: number, file: File) {
  const input = screen.getByLabelText(`选择第 ${n} 个场景的视频或照片`);
  await act(async () => {
    fireEvent.change(input, { target: { files: [file] } });
  });
}

const MB = 1024 * 1024;

describe('/video/operaScene', () => {
  it('states the server’s limits before anything is chosen', async () => {
    await start();
    storeDemoDraft();
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    expect(screen.getByText('照片：JPEG、PNG、WebP，不超过 5 MB')).toBeVisible();
    expect(
      screen.getByText('视频：MP4、MOV、WebM、MKV，不超过 200 MB，时长不超过 10 分钟'),
    ).toBeVisible();
    expect(within(scene(1)).getByText('小明：你好。')).toBeInTheDocument();
    expect(within(scene(1)).getByText('小红：好久不见。')).toBeInTheDocument();
    expect(within(scene(2)).getByText('还没有素材')).toBeInTheDocument();
  });

  it('uploads a photo (upload_image) with a progress bar, then shows it', async () => {
    const server = await start();
    storeDemoDraft();
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    await choose(1, fileOf('街角.png', 'image/png'));
    expect(await screen.findByLabelText('第 1 个场景的上传进度')).toBeInTheDocument();
    const photo = await within(scene(1)).findByAltText('场景 1 的照片');
    expect(photo).toHaveAttribute('src', `${server.origin}/uploads/photo-1.png`);
    expect(screen.queryByLabelText('第 1 个场景的上传进度')).not.toBeInTheDocument();
    expect(within(scene(1)).getByText('街角.png')).toBeInTheDocument();
    const sent = server.calls('POST', '/api/file/upload_image');
    expect(sent).toHaveLength(1);
    expect(String(sent[0]?.headers['content-type'])).toMatch(/^multipart\/form-data/);
    expect(String(sent[0]?.body)).toContain('filename="街角.png"');
    expect(server.calls('POST', '/api/file/upload_media')).toHaveLength(0);
  });

  it('uploads a clip (upload_media) and shows it in a player; a reload keeps both scenes', async () => {
    const server = await start();
    storeDemoDraft();
    const first = renderWithHost(<OperaSceneStep />, { route: ROUTE });
    await choose(1, fileOf('a.png', 'image/png'));
    await within(scene(1)).findByAltText('场景 1 的照片');
    await choose(2, fileOf('雨夜.mp4', 'video/mp4'));
    const clip = await within(scene(2)).findByLabelText('场景 2 的视频');
    expect(clip).toHaveAttribute('src', `${server.origin}/uploads/clip-1.mp4`);
    expect(server.calls('POST', '/api/file/upload_media')).toHaveLength(1);
    // A scene's clip is a video: the server is told so and names only video formats.
    const sent = String(server.calls('POST', '/api/file/upload_media')[0]?.body);
    expect(sent).toMatch(/name="kind"\r\n\r\nvideo\r\n[\s\S]*name="file"/);
    first.unmount();

    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    expect(within(scene(1)).getByAltText('场景 1 的照片')).toBeInTheDocument();
    expect(within(scene(2)).getByLabelText('场景 2 的视频')).toBeInTheDocument();
    expect(operaSession.get('operaDraft')?.scenes.map((s) => [s.mediaUrl, s.mediaKind])).toEqual([
      ['/uploads/photo-1.png', 'image'],
      ['/uploads/clip-1.mp4', 'video'],
    ]);
  });

  it.each([
    [
      '台词.mp3',
      'audio/mpeg',
      1024,
      '「台词.mp3」是音频：场景只能用视频或照片，台词的声音由配音生成',
    ],
    [
      '剧本.pdf',
      'application/pdf',
      1024,
      '「剧本.pdf」的格式不支持：请上传 JPEG、PNG、WebP 照片或 MP4、MOV、WebM、MKV 视频',
    ],
    [
      '大图.jpg',
      'image/jpeg',
      6 * MB,
      '照片「大图.jpg」有 6.0 MB，超过 5 MB 的上限，请压缩后再上传',
    ],
    [
      '长片.mov',
      'video/quicktime',
      250 * MB,
      '视频「长片.mov」有 250.0 MB，超过 200 MB 的上限，请剪短或压缩后再上传',
    ],
  ])(
    'refuses %s before sending it, saying why, and keeps the scene as it was',
    async (name, type, bytes, problem) => {
      const server = await start();
      storeDemoDraft({
        scenes: [
          demoScene('a', [['小明', '你好。']], {
            mediaUrl: '/uploads/old.png',
            mediaKind: 'image',
            mediaName: '旧照片.png',
          }),
        ],
      });
      renderWithHost(<OperaSceneStep />, { route: ROUTE });
      await choose(1, fileOf(name, type, bytes));
      expect((await screen.findAllByText(problem)).length).toBeGreaterThan(0);
      await settle();
      expect(server.calls('POST', '/api/file/upload_image')).toHaveLength(0);
      expect(server.calls('POST', '/api/file/upload_media')).toHaveLength(0);
      expect(within(scene(1)).getByAltText('场景 1 的照片')).toHaveAttribute(
        'src',
        `${server.origin}/uploads/old.png`,
      );
      expect(operaSession.get('operaDraft')?.scenes[0]?.mediaUrl).toBe('/uploads/old.png');
    },
  );

  it('says why the server refused an upload, keeping the scene’s photo', async () => {
    const server = await start({
      'POST /api/file/upload_media': () =>
        refuse(400, '视频时长不能超过 10 分钟，请剪短后再上传', 400),
    });
    storeDemoDraft({
      scenes: [
        demoScene('a', [['小明', '你好。']], { mediaUrl: '/uploads/old.png', mediaKind: 'image' }),
      ],
    });
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    await choose(1, fileOf('长片.mp4', 'video/mp4'));
    expect(
      (await screen.findAllByText('第 1 个场景上传失败：视频时长不能超过 10 分钟，请剪短后再上传'))
        .length,
    ).toBeGreaterThan(0);
    expect(server.calls('POST', '/api/file/upload_media')).toHaveLength(1);
    expect(within(scene(1)).getByAltText('场景 1 的照片')).toBeInTheDocument();
    expect(operaSession.get('operaDraft')?.scenes[0]?.mediaUrl).toBe('/uploads/old.png');
  });

  it('refuses a media upload the server found to hold only sound', async () => {
    await start({
      'POST /api/file/upload_media': () =>
        ok({ url: '/uploads/x.m4a', assetId: 6, kind: 'audio', durationMs: 2000, name: 'x' }),
    });
    storeDemoDraft();
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    await choose(1, fileOf('声音.mp4', 'video/mp4'));
    expect(
      (
        await screen.findAllByText(
          '第 1 个场景上传失败：「声音.mp4」里没有画面：场景只能用视频或照片',
        )
      ).length,
    ).toBeGreaterThan(0);
    expect(within(scene(1)).getByText('还没有素材')).toBeInTheDocument();
  });

  it('will not generate while a scene has no clip or photo', async () => {
    const server = await start();
    storeDemoDraft();
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    await choose(1, fileOf('a.png', 'image/png'));
    await within(scene(1)).findByAltText('场景 1 的照片');
    fireEvent.click(await screen.findByRole('button', { name: '生成视频（剩余 2 次）' }));
    expect((await screen.findAllByText('第 2 个场景还没有上传视频或照片')).length).toBeGreaterThan(
      0,
    );
    await settle();
    expect(screen.queryByText('确认生成')).not.toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_video_info')).toHaveLength(0);
    expect(server.calls('POST', '/api/video/gen_video')).toHaveLength(0);
  });

  it('saves the whole drama, asks before spending a count, then follows it on /video/production', async () => {
    const server = await start();
    storeDemoDraft({
      settings: {
        aspect: '16:9',
        captionStyle: 'yellow',
        speed: 1,
        musicId: -1,
        roleVoices: { 小明: 'espeak-cmn-f', 小红: 'espeak-cmn-m', 旧角色: 'espeak-cmn-m' },
      },
    });
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    await choose(1, fileOf('a.png', 'image/png'));
    await within(scene(1)).findByAltText('场景 1 的照片');
    await choose(2, fileOf('b.mp4', 'video/mp4'));
    await within(scene(2)).findByLabelText('场景 2 的视频');

    fireEvent.click(await screen.findByRole('button', { name: '生成视频（剩余 2 次）' }));
    expect(
      await screen.findByText(
        '将消耗 1 次「真人短剧」生成次数（当前剩余 2 次）。生成失败会自动退回次数；中途取消不退回。',
      ),
    ).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/gen_video')).toHaveLength(0);
    expect(server.calls('POST', '/api/video/save_video_info').map((call) => call.body)).toEqual([
      {
        workId: 31,
        revision: 2,
        settings: {
          aspect: '16:9',
          captionStyle: 'yellow',
          speed: 1,
          musicId: -1,
          roleVoices: { 小明: 'espeak-cmn-f', 小红: 'espeak-cmn-m' },
          scenes: [
            {
              mediaUrl: '/uploads/photo-1.png',
              lines: [
                { speaker: '小明', text: '你好。' },
                { speaker: '小红', text: '好久不见。' },
              ],
            },
            { mediaUrl: '/uploads/clip-1.mp4', lines: [{ speaker: '小明', text: '我们走吧。' }] },
          ],
        },
      },
    ]);
    expect(server.calls('POST', '/api/video/update_text')[0]?.body).toEqual({
      workId: 31,
      revision: 1,
      text: '小明：你好。\n小红：好久不见。\n\n小明：我们走吧。',
    });

    fireEvent.click(screen.getByRole('button', { name: '确认生成' }));
    await waitFor(() => expect(location()).toBe('/video/production?workId=31'));
    expect(server.calls('POST', '/api/video/gen_video').map((call) => call.body)).toEqual([
      { workId: 31 },
    ]);
  });

  it('says why the server would not start the video, keeping the dialog for another try', async () => {
    await start({
      'POST /api/video/gen_video': () => refuse(402, '真人短剧的生成次数已用完', 402),
    });
    storeDemoDraft({
      scenes: [
        demoScene('a', [['小明', '你好。']], { mediaUrl: '/uploads/p.png', mediaKind: 'image' }),
      ],
    });
    renderWithHost(<OperaSceneStep />, { route: ROUTE });
    fireEvent.click(await screen.findByRole('button', { name: '生成视频（剩余 2 次）' }));
    fireEvent.click(await screen.findByRole('button', { name: '确认生成' }));
    expect(await screen.findByText('真人短剧的生成次数已用完')).toBeVisible();
    expect(location()).toBe(ROUTE);
    expect(screen.getByRole('button', { name: '确认生成' })).toBeInTheDocument();
  });
});
