import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TemplateId, type DedupPresets, type DedupPresetsRecord } from '@kol/shared-sdk';
import {
  demoUser,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { videoBackendPerTest, workRoutes } from '../../../testing/backend';
import { demoLimits, demoResult, demoWorkDetail } from '../../../testing/fixtures';
import { dedupSession } from '../draft';
import { DedupClipStep } from '../steps/clip-step';
import { DedupConfigStep } from '../steps/config-step';

const backend = videoBackendPerTest();

const convertUser = (functionalLevel = 1) =>
  demoUser({ templateIds: [0, 1, TemplateId.convert], functionalLevel });

const PREVIEW = {
  beforeUrl: '/media/7/dedup-preview/a-before.jpg',
  afterUrl: '/media/7/dedup-preview/a-after.jpg',
  atMs: 0,
};

/** The user's saved presets as the server keeps them: saved on their newest revision only. */
let savedPresets: DedupPresetsRecord;

/** Another tab saves presets: the revision moves on. */
const savedElsewhere = (presets: DedupPresets) => {
  savedPresets = { presets, revision: savedPresets.revision + 1 };
};

async function start(overrides: FakeRoutes = {}) {
  savedPresets = { presets: { mirror: true, speed: 1.1 }, revision: 3 };
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainXiGaoCount: 2 })),
    'GET /api/video/dedup_presets': () => ok(savedPresets),
    'POST /api/video/save_dedup_presets': ({ body }) => {
      const { presets, revision } = body as DedupPresetsRecord;
      if (revision !== savedPresets.revision) {
        return refuse(412, '去重设置已在其他页面修改，请刷新后再编辑', 412);
      }
      savedElsewhere(presets);
      return ok({ revision: savedPresets.revision });
    },
    'POST /api/video/dedup_preview': () => ok(PREVIEW),
    ...overrides,
  });
}

const location = () => screen.getByTestId('location').textContent;

describe('/video/cutDuplicates/config', () => {
  it('is closed to functional level 0', async () => {
    await start();
    renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(0),
    });
    expect(screen.getByText('没有权限')).toBeVisible();
  });

  it('restores the saved presets, saves the edited ones, and keeps unsaved edits on reload', async () => {
    const server = await start();
    const { unmount } = renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(),
    });
    const mirror = await screen.findByRole('checkbox', { name: '镜像' });
    expect(mirror).toBeChecked();
    expect(screen.getByText('变速：1.10×')).toBeInTheDocument();
    expect(screen.getByText('已保存')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: '轻微蒙层' }));
    expect(screen.getByText('有未保存的修改')).toBeInTheDocument();
    unmount();

    // A reload: the edit is still there, still unsaved.
    renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(),
    });
    expect(await screen.findByRole('checkbox', { name: '轻微蒙层' })).toBeChecked();
    expect(screen.getByText('有未保存的修改')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '保存设置' }));
    await screen.findByText('已保存');
    expect(server.calls('POST', '/api/video/save_dedup_presets')[0]?.body).toEqual({
      presets: { mirror: true, speed: 1.1, overlay: true },
      revision: 3,
    });
    expect(dedupSession.get('dedupEdit')?.presets).toBeNull();
  });

  it('saves on the revision it read: presets saved in another tab since are merged in', async () => {
    const server = await start();
    renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(),
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: '轻微蒙层' }));
    savedElsewhere({ mirror: true, speed: 1.2 });
    fireEvent.click(screen.getByRole('button', { name: '保存设置' }));
    expect(await screen.findByText('去重设置已保存，反推视频可直接使用')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_dedup_presets').map((call) => call.body)).toEqual([
      { presets: { mirror: true, speed: 1.1, overlay: true }, revision: 3 },
      { presets: { mirror: true, speed: 1.2, overlay: true }, revision: 4 },
    ]);
    expect(savedPresets).toEqual({
      presets: { mirror: true, speed: 1.2, overlay: true },
      revision: 5,
    });
    expect(screen.getByText('变速：1.20×')).toBeInTheDocument();
  });

  it('asks when the same preset was changed in another tab; 载入最新内容 shows those', async () => {
    const server = await start();
    renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(),
    });
    fireEvent.click(await screen.findByLabelText('24 fps'));
    savedElsewhere({ mirror: true, speed: 1.1, frameRate: 60 });
    fireEvent.click(screen.getByRole('button', { name: '保存设置' }));
    expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('24 fps')).toBeChecked();
    fireEvent.click(screen.getByText('载入最新内容'));
    await waitFor(() => expect(screen.getByLabelText('60 fps')).toBeChecked());
    expect(screen.getByText('已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_dedup_presets')).toHaveLength(1);
  });

  it('shows the before / after frame of the uploaded clip for the current presets', async () => {
    const server = await start({
      'POST /api/file/upload_media': () =>
        ok({ url: '/uploads/c.mp4', assetId: 1, kind: 'video', durationMs: 3000, name: 'c' }, 200),
    });
    renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(),
    });
    await screen.findByRole('checkbox', { name: '镜像' });
    expect(screen.getByText('上传视频后在这里显示去重前后的画面')).toBeInTheDocument();
    await act(async () => {
      fireEvent.change(screen.getByLabelText('选择原视频'), {
        target: { files: [new File([new Uint8Array(64)], 'c.mp4', { type: 'video/mp4' })] },
      });
    });
    const after = await screen.findByAltText('去重后');
    expect(after.getAttribute('src')).toContain('/media/7/dedup-preview/a-after.jpg');
    expect(screen.getByAltText('去重前').getAttribute('src')).toContain('a-before.jpg');
    expect(server.calls('POST', '/api/video/dedup_preview').at(-1)?.body).toEqual({
      sourceVideoUrl: '/uploads/c.mp4',
      presets: { mirror: true, speed: 1.1 },
      aspect: '9:16',
    });
    fireEvent.click(screen.getByRole('checkbox', { name: '镜像' }));
    await waitFor(() =>
      expect(server.calls('POST', '/api/video/dedup_preview').at(-1)?.body).toEqual({
        sourceVideoUrl: '/uploads/c.mp4',
        presets: { speed: 1.1 },
        aspect: '9:16',
      }),
    );
  });

  it('refuses a file that is not a video, naming it', async () => {
    const server = await start();
    renderWithHost(<DedupConfigStep />, {
      route: '/video/cutDuplicates/config',
      user: convertUser(),
    });
    await screen.findByRole('checkbox', { name: '镜像' });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('选择原视频'), {
        target: { files: [new File(['x'], 'a.txt', { type: 'text/plain' })] },
      });
    });
    expect(
      await screen.findAllByText('「a.txt」不是支持的视频：请上传 MP4、MOV、WebM 或 MKV 视频'),
    ).not.toHaveLength(0);
    expect(server.calls('POST', '/api/file/upload_media')).toHaveLength(0);
  });
});

describe('/video/cutDuplicates/:id and /video/duplicatesEdit/:id', () => {
  const work = demoWorkDetail(41, {
    type: 3,
    title: '猫咪',
    settings: { aspect: '16:9', sourceVideoUrl: '/uploads/c.mp4', dedup: { overlay: true } },
  });

  it('applies the presets to the work’s clip, previews, renders after asking, and offers the result', async () => {
    const server = await start({
      'GET /api/video/work_info': () => ok(work),
      'GET /api/video/get_work_result': () =>
        ok(
          demoResult(41, {
            state: 'succeeded',
            videoUrl: '/media/7/t/video.mp4',
            durationMs: 4000,
          }),
        ),
      'POST /api/video/save_video_info': workRoutes({ work })['POST /api/video/save_video_info'],
      'POST /api/video/gen_video': () => ok({ taskId: 'task-42' }),
    });
    const open = () =>
      renderWithHost(<DedupClipStep outside />, {
        route: '/video/duplicatesEdit/41',
        path: '/video/duplicatesEdit/:id',
        user: convertUser(),
      });
    const { unmount } = open();
    expect(await screen.findByRole('checkbox', { name: '轻微蒙层' })).toBeChecked();
    expect(screen.getByRole('link', { name: /下载 MP4/ }).getAttribute('href')).toContain(
      '/media/7/t/video.mp4',
    );
    fireEvent.click(screen.getByRole('checkbox', { name: '镜像' }));
    await waitFor(() =>
      expect(server.calls('POST', '/api/video/dedup_preview').at(-1)?.body).toEqual({
        sourceVideoUrl: '/uploads/c.mp4',
        presets: { overlay: true, mirror: true },
        aspect: '16:9',
      }),
    );
    // A reload before the render keeps what was tried; the work itself is not touched yet.
    unmount();
    open();
    expect(await screen.findByRole('checkbox', { name: '镜像' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '轻微蒙层' })).toBeChecked();
    expect(server.calls('POST', '/api/video/save_video_info')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: /^生成视频/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认生成' }));
    await waitFor(() => expect(location()).toBe('/video/production?workId=41'));
    await settle();
    // Based on the work as the page read it; only what the page edits is sent.
    expect(server.calls('POST', '/api/video/save_video_info')[0]?.body).toEqual({
      workId: 41,
      revision: 1,
      settings: { aspect: '16:9', dedup: { overlay: true, mirror: true } },
    });
    expect(server.calls('POST', '/api/video/gen_video')[0]?.body).toEqual({ workId: 41 });
    // Rendered: the work holds the presets, the session no longer does.
    expect(dedupSession.get('dedupClip')).toBeNull();
  });

  it('does not carry one work’s unrendered presets to another work', async () => {
    dedupSession.set('dedupClip', { workId: 40, presets: { mirror: true } });
    await start({ 'GET /api/video/work_info': () => ok(work) });
    renderWithHost(<DedupClipStep />, {
      route: '/video/cutDuplicates/41',
      path: '/video/cutDuplicates/:id',
      user: convertUser(),
    });
    expect(await screen.findByRole('checkbox', { name: '轻微蒙层' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '镜像' })).not.toBeChecked();
  });

  it('says a work that is not a reverse video cannot be de-duplicated', async () => {
    await start({ 'GET /api/video/work_info': () => ok(demoWorkDetail(5, { title: '漫剪' })) });
    renderWithHost(<DedupClipStep />, {
      route: '/video/cutDuplicates/5',
      path: '/video/cutDuplicates/:id',
      user: convertUser(),
    });
    expect(await screen.findByText('这个作品不能去重')).toBeInTheDocument();
    expect(
      screen.getByText('「漫剪」不是反推视频：去重只用于反推视频的原视频画面'),
    ).toBeInTheDocument();
  });
});
