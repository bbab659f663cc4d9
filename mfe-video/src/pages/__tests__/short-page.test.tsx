import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  ok,
  qualityReport,
  refuse,
  renderWithHost,
  settle,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import type { WorkResult } from '@kol/shared-sdk';
import { changeWork, videoBackendPerTest, workRoutes, type WorkState } from '../../testing/backend';
import { demoResult, demoShot, demoWorkDetail } from '../../testing/fixtures';
import { ShortPage } from '../short-page';

const backend = videoBackendPerTest();

const PATH = '/video/short/:taskId';
const ROUTE = '/video/short/task-21';
const DONE = demoResult(21, {
  taskId: 'task-21',
  state: 'succeeded',
  progress: 100,
  etaSeconds: null,
  videoUrl: '/media/7/task-21/video.mp4',
  srtUrl: '/media/7/task-21/video.srt',
  coverUrl: '/media/7/task-21/video-cover.jpg',
});
const WORK = demoWorkDetail(21, {
  title: '山中小记',
  shots: [
    demoShot(0, { imageUrl: '/media/7/task-21/frames/shot-000.jpg', durationMs: 3000 }),
    demoShot(1, {
      imageUrl: '/media/7/task-21/frames/shot-001.jpg',
      durationMs: 2500,
      needsRegeneration: true,
    }),
  ],
});

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'GET /api/video/get_work_result': () => ok(DONE),
    'GET /api/video/work_info': () => ok(WORK),
    ...overrides,
  });
}

const origin = () => backend.current.origin;

describe('/video/short/:taskId', () => {
  it('shows a real-person drama, which has no drawn shots, without the shots card', async () => {
    await start({
      'GET /api/video/work_info': () =>
        ok(demoWorkDetail(21, { type: 8, title: '雨夜重逢', text: '小明：你好。', shots: [] })),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const player = await screen.findByLabelText('视频播放器');
    expect(player).toHaveAttribute('src', `${origin()}/media/7/task-21/video.mp4`);
    expect(screen.getByText('下载 SRT 字幕').closest('a')).toHaveAttribute(
      'download',
      '雨夜重逢.srt',
    );
    Object.defineProperty(player, 'duration', { configurable: true, value: 7.2 });
    fireEvent.loadedMetadata(player);
    expect(screen.getByText('真人短剧 · 时长 7秒')).toBeInTheDocument();
    expect(screen.queryByText('分镜画面')).not.toBeInTheDocument();
    // A video made before quality reports existed answers none: no card.
    expect(screen.queryByText('质量报告')).not.toBeInTheDocument();
  });

  it('shows the quality report, a fallback shot warning linking to the pictures page', async () => {
    const report = qualityReport({
      loudnessLufs: -19.2,
      truePeakDbtp: -2.3,
      durationMs: 5500,
      narrationMs: 5480,
      fallbackShots: [1],
      providers: {
        text: null,
        pictures: 'gpt-image-1（api.openai.com）、本地画面（图像服务出错，可重新生成）',
        voice: 'espeak-ng（离线）',
      },
      problems: [
        { kind: 'loudness', message: '响度 -19.2 LUFS，偏离目标 -16 LUFS' },
        {
          kind: 'fallbackShots',
          message: '第 2 镜使用了本地画面（图像服务出错），可重新生成画面',
        },
      ],
    });
    await start({ 'GET /api/video/get_work_result': () => ok({ ...DONE, report }) });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('质量报告')).toBeInTheDocument();
    expect(screen.getByText('-19.2 LUFS（目标 -16 LUFS）')).toBeInTheDocument();
    expect(screen.getByText('-2.3 dBTP（上限 -1 dBTP）')).toBeInTheDocument();
    expect(screen.getByText('成片 5.5 秒 · 配音 5.5 秒')).toBeInTheDocument();
    expect(screen.getByText('作者自己的文案')).toBeInTheDocument();
    expect(screen.getByText('espeak-ng（离线）')).toBeInTheDocument();
    expect(screen.getByText('响度 -19.2 LUFS，偏离目标 -16 LUFS')).toBeInTheDocument();
    const fallback = screen.getByText('第 2 镜使用了本地画面（图像服务出错），可重新生成画面');
    expect(fallback.closest('[role="alert"]')).toHaveClass('ant-alert-warning');
    expect(screen.queryByText('未发现问题')).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('重新生成画面'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/video/promptWord/21?videoType=0&workId=21',
    );
  });

  it('makes a failed moving shot again from the report, once, and says when the clips are ready', async () => {
    const report = qualityReport({
      stillShots: [1],
      calls: { pictures: 2, clips: 2, speechSeconds: 6.2 },
      providers: { text: null, pictures: 'gpt-image-1', voice: 'tts-1', clips: 'sora-2（x）' },
      problems: [
        {
          kind: 'stillShots',
          message:
            '第 2 镜的动态镜头没有生成成功（视频服务出错），用静态画面加推拉代替，可重新生成动态镜头',
          action: 'regenerateClips',
        },
      ],
    });
    const failed = demoWorkDetail(21, {
      shots: [
        demoShot(0, {
          imageUrl: '/media/7/t/frames/shot-000.jpg',
          clipUrl: '/media/7/t/clips/shot-000.mp4',
        }),
        demoShot(1, {
          imageUrl: '/media/7/t/frames/shot-001.jpg',
          clipError: '视频服务 sora-2 没有生成出视频',
        }),
      ],
    });
    let work = failed;
    let polls = 0;
    const server = await start({
      'GET /api/video/get_work_result': () => ok({ ...DONE, report }),
      'GET /api/video/work_info': () => ok(work),
      'POST /api/video/gen_clip': () => ok({ taskId: 'clip-1' }),
      'GET /api/video/clip_result': () => {
        polls += 1;
        if (polls < 2) {
          return ok({ taskId: 'clip-1', state: 'running', clipUrl: '', engine: '', error: null });
        }
        work = demoWorkDetail(21, {
          shots: [
            ...failed.shots.slice(0, 1),
            {
              ...demoShot(1, { imageUrl: '/media/7/t/frames/shot-001.jpg' }),
              clipUrl: '/media/7/clip-1/clip.mp4',
            },
          ],
        });
        return ok({
          taskId: 'clip-1',
          state: 'succeeded',
          clipUrl: '/media/7/clip-1/clip.mp4',
          engine: 'sora-2',
          error: null,
        });
      },
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('sora-2（x）')).toBeInTheDocument();
    expect(screen.getByText('画面 2 张 · 动态镜头 2 段 · 配音 6.2 秒')).toBeInTheDocument();
    const button = await screen.findByRole('button', { name: '重新生成动态镜头' });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(
      await screen.findByText(
        '动态镜头已重新生成，重新生成视频后用于成片',
        {},
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/gen_clip').map((call) => call.body)).toEqual([
      { workId: 21, shotIndex: 1 },
    ]);
  });

  it('sets the details, actions and report beside the player on a wide screen, stacked on a phone', async () => {
    await start({
      'GET /api/video/get_work_result': () => ok({ ...DONE, report: qualityReport() }),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const player = await screen.findByLabelText('视频播放器');
    const playerColumn = screen.getByTestId('player-column');
    const beside = screen.getByTestId('details-column');
    expect(playerColumn).toContainElement(player);
    // Both in the same row, next to each other: no empty half beside a narrow portrait video.
    expect(playerColumn.nextElementSibling).toBe(beside);
    expect(within(beside).getByText('视频信息')).toBeInTheDocument();
    expect(within(beside).getByText('质量报告')).toBeInTheDocument();
    expect(within(beside).getByText('下载 SRT 字幕')).toBeInTheDocument();
    // A portrait video takes a third of a wide row, the rest is beside it; a phone stacks them.
    expect(playerColumn).toHaveClass('ant-col-xs-24', 'ant-col-lg-8');
    expect(beside).toHaveClass('ant-col-xs-24', 'ant-col-lg-16');
  });

  it('gives a landscape video the wider column', async () => {
    await start({
      'GET /api/video/work_info': () => ok({ ...WORK, settings: { aspect: '16:9' } }),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    await screen.findByLabelText('视频播放器');
    expect(screen.getByTestId('player-column')).toHaveClass('ant-col-xs-24', 'ant-col-lg-14');
    expect(screen.getByTestId('details-column')).toHaveClass('ant-col-xs-24', 'ant-col-lg-10');
  });

  it('says 未发现问题 for a clean report; another type has no pictures page to link', async () => {
    let report = qualityReport();
    let work = WORK;
    await start({
      'GET /api/video/get_work_result': () => ok({ ...DONE, report }),
      'GET /api/video/work_info': () => ok(work),
    });
    const first = renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('未发现问题')).toBeInTheDocument();
    first.unmount();
    work = demoWorkDetail(21, { type: 4, title: '新品上市', shots: [] });
    report = qualityReport({
      fallbackShots: [0],
      problems: [{ kind: 'fallbackShots', message: '第 1 镜使用了本地画面' }],
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('第 1 镜使用了本地画面')).toBeInTheDocument();
    expect(screen.queryByText('重新生成画面')).not.toBeInTheDocument();
  });

  it('names local pictures and the offline voice with what fixes them, never 未发现问题', async () => {
    const offline = qualityReport({
      localShots: [0, 1],
      offlineVoice: true,
      providers: { text: null, pictures: '本地画面（未配置图像服务）', voice: 'espeak-ng（离线）' },
      problems: [
        {
          kind: 'localPictures',
          message: '全部 2 个分镜是本地画面（未配置图像服务）：只有文字排版，不是生成的插画',
          action: 'configureImages',
        },
        {
          kind: 'offlineVoice',
          message: '配音由离线引擎 espeak-ng（离线） 合成：声音机械，不适合直接发布',
          action: 'configureVoice',
        },
      ],
    });
    let report: WorkResult['report'] = offline;
    const work = demoWorkDetail(21, {
      type: 11,
      shots: [
        demoShot(0, { imageUrl: '/media/7/task-21/frames/shot-000.jpg' }),
        demoShot(1, { imageUrl: '/media/7/task-21/frames/shot-001.jpg' }),
      ],
    });
    await start({
      'GET /api/video/get_work_result': () => ok({ ...DONE, report }),
      'GET /api/video/work_info': () => ok(work),
    });
    const first = renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const local = await screen.findByText(
      '全部 2 个分镜是本地画面（未配置图像服务）：只有文字排版，不是生成的插画',
      { selector: '.ant-alert-title' },
    );
    expect(local.closest('[role="alert"]')).toHaveTextContent('配置图像服务');
    const voice = screen.getByText(/^配音由离线引擎 espeak-ng/);
    expect(voice.closest('[role="alert"]')).toHaveTextContent('配置语音服务');
    expect(screen.queryByText('未发现问题')).not.toBeInTheDocument();
    // The shots card says the same, and marks each shot.
    expect(screen.queryByText(/所有分镜都用了/)).not.toBeInTheDocument();
    expect(screen.getAllByText('本地画面')).toHaveLength(2);
    first.unmount();
    // A report stored before these checks: its engines say it, so still no 未发现问题.
    const legacy: Partial<typeof offline> = { ...offline, problems: [] };
    delete legacy.localShots;
    delete legacy.missingShots;
    delete legacy.offlineVoice;
    report = legacy as typeof offline;
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText(/^配音由离线引擎 espeak-ng/)).toBeInTheDocument();
    expect(screen.getByText(/^画面是本地画面（未配置图像服务）/)).toBeInTheDocument();
    expect(screen.queryByText('未发现问题')).not.toBeInTheDocument();
    expect(screen.getByText('在编辑器中修改')).toBeInTheDocument();
  });

  it('plays the video with its cover and offers the MP4 and the SRT', async () => {
    await start();
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const player = await screen.findByLabelText('视频播放器');
    expect(player).toHaveAttribute('src', `${origin()}/media/7/task-21/video.mp4`);
    expect(player).toHaveAttribute('poster', `${origin()}/media/7/task-21/video-cover.jpg`);
    expect(player).toHaveAttribute('preload', 'metadata');
    expect(screen.getByAltText('封面')).toBeInTheDocument();
    const mp4 = screen.getByText('下载 MP4').closest('a');
    expect(mp4).toHaveAttribute('href', `${origin()}/media/7/task-21/video.mp4`);
    expect(mp4).toHaveAttribute('download', '山中小记.mp4');
    expect(screen.getByText('下载 SRT 字幕').closest('a')).toHaveAttribute(
      'download',
      '山中小记.srt',
    );
    // Until the player has read the file, the length is the shots' sum.
    expect(screen.getByText('漫剪视频 · 时长 6秒')).toBeInTheDocument();
    Object.defineProperty(player, 'duration', { configurable: true, value: 83.4 });
    fireEvent.loadedMetadata(player);
    expect(screen.getByText('漫剪视频 · 时长 1分23秒')).toBeInTheDocument();
  });

  it('offers this render as a 剪映 draft and an MLT project, or says why it cannot be', async () => {
    let exportRefusal: string | null = null;
    await start({ 'GET /api/video/get_work_result': () => ok({ ...DONE, exportRefusal }) });
    const first = renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const details = await screen.findByTestId('details-column');
    expect(within(details).getByRole('button', { name: '导出剪映草稿' })).toBeInTheDocument();
    expect(within(details).getByRole('link', { name: '导出工程' })).toHaveAttribute(
      'href',
      `${origin()}/api/video/export_project?workId=21&format=mlt&taskId=task-21`,
    );
    first.unmount();

    exportRefusal = '这个视频生成于「导出工程」上线之前，重新生成后即可导出';
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText(exportRefusal)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '导出剪映草稿' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '导出工程' })).not.toBeInTheDocument();
  });

  it('renames the video (save_video_info) on the revision it read, refusing an empty title', async () => {
    const server = await start(workRoutes({ work: { ...WORK, revision: 4 } }));
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const title = await screen.findByLabelText('视频标题');
    fireEvent.change(title, { target: { value: '  ' } });
    fireEvent.click(screen.getByText('保存标题'));
    expect(await screen.findByText('请填写视频标题')).toBeInTheDocument();
    await settle();
    expect(server.calls('POST', '/api/video/save_video_info')).toHaveLength(0);
    fireEvent.change(title, { target: { value: '山门夜雨' } });
    fireEvent.click(screen.getByText('保存标题'));
    expect(await screen.findByText('标题已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_video_info')[0]?.body).toEqual({
      workId: 21,
      revision: 4,
      title: '山门夜雨',
    });
  });

  it('renames a video changed elsewhere since it was read: merged onto the newest revision', async () => {
    const state: WorkState = { work: { ...WORK, revision: 4 } };
    const server = await start(workRoutes(state));
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const title = await screen.findByLabelText('视频标题');
    // Another tab set the cover meanwhile.
    changeWork(state, () => ({ coverUrl: '/media/7/cover.jpg' }));
    fireEvent.change(title, { target: { value: '山门夜雨' } });
    fireEvent.click(screen.getByText('保存标题'));
    expect(await screen.findByText('标题已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_video_info').map((call) => call.body)).toEqual([
      { workId: 21, revision: 4, title: '山门夜雨' },
      { workId: 21, revision: 5, title: '山门夜雨' },
    ]);
    expect(state.work).toMatchObject({ title: '山门夜雨', coverUrl: '/media/7/cover.jpg' });
  });

  it('moves the video between draft and creation (update_video_status)', async () => {
    let fail = false;
    const server = await start({
      'GET /api/video/update_video_status': () =>
        fail ? refuse(404, '没有找到这个作品', 404) : ok(null),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByText('作品', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('已移到作品')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/update_video_status')[0]?.query).toEqual({
      workId: '21',
      flag: '1',
    });
    fail = true;
    fireEvent.click(screen.getByText('草稿', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('没有找到这个作品')).toBeInTheDocument();
  });

  it('regenerates after confirming the count, then shows the progress', async () => {
    const server = await start({
      'GET /api/video/regenerate_video': () => ok({ taskId: 'task-22' }),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByText(/^重新生成$/, { selector: 'button span' }));
    fireEvent.click(await screen.findByText('确认重新生成'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/video/production?workId=21'),
    );
    expect(server.calls('GET', '/api/video/regenerate_video')[0]?.query).toEqual({ workId: '21' });
  });

  it('leads to the editor and marks the shots whose pictures should be redrawn', async () => {
    await start();
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(
      await screen.findByText('1 个分镜用了本地画面（图像服务出错或未配置）'),
    ).toBeInTheDocument();
    expect(screen.getByText('待重绘')).toBeInTheDocument();
    fireEvent.click(screen.getByText('去重绘这些画面'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/video/promptWord/21?videoType=0&workId=21',
    );
  });

  it('leads a decompression video to its segment editor once, on /video/cut', async () => {
    await start({
      'GET /api/video/work_info': () => ok(demoWorkDetail(21, { type: 1, title: '星夜解压' })),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const segments = await screen.findByText('片段编辑');
    expect(screen.queryByText('在编辑器中修改')).not.toBeInTheDocument();
    fireEvent.click(segments);
    expect(screen.getByTestId('location')).toHaveTextContent('/video/cut?workId=21');
  });

  it('opens the editor of the work', async () => {
    await start();
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByText('在编辑器中修改'));
    expect(screen.getByTestId('location')).toHaveTextContent('/work/cut/21');
  });

  it('finds the video by its task id alone, and says when it is still running', async () => {
    let result: WorkResult = DONE;
    const server = await start({ 'GET /api/video/get_work_result': () => ok(result) });
    const first = renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByLabelText('视频标题')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/get_work_result')[0]?.query).toEqual({
      taskId: 'task-21',
    });
    first.unmount();
    result = demoResult(21);
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('视频还在生成中')).toBeInTheDocument();
    fireEvent.click(screen.getByText('查看生成进度'));
    expect(screen.getByTestId('location')).toHaveTextContent('/video/production?workId=21');
  });

  it('says in Chinese when the video cannot load', async () => {
    await start({
      'GET /api/video/get_work_result': () => refuse(404, '任务不存在', 404),
    });
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('视频加载失败：任务不存在')).toBeInTheDocument();
  });

  it('says in Chinese when renaming fails or the work cannot load, keeping the title', async () => {
    let infoFails = false;
    await start({
      'POST /api/video/save_video_info': () => refuse(400, '「标题」不能超过 100 个字符', 400),
      'GET /api/video/work_info': () =>
        infoFails ? refuse(404, '没有找到这个作品', 404) : ok(WORK),
    });
    const first = renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    const title = await screen.findByLabelText('视频标题');
    fireEvent.change(title, { target: { value: '新标题' } });
    fireEvent.click(screen.getByText('保存标题'));
    expect(await screen.findByText('「标题」不能超过 100 个字符')).toBeInTheDocument();
    expect(title).toHaveValue('新标题');
    first.unmount();
    infoFails = true;
    renderWithHost(<ShortPage />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('视频加载失败：没有找到这个作品')).toBeInTheDocument();
  });
});
