import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentUserAtom } from '../../state';
import { demoUser, fakeBackendPerTest, ok, refuse, renderWithHost, settle } from '../../testing';
import { ExportProject } from '..';

const WINDOWS = 'D:\\剪映\\User Data\\Projects\\com.lveditor.draft';
const MACOS = '/Users/me/Movies/JianyingPro/User Data/Projects/com.lveditor.draft';

const backend = fakeBackendPerTest();

/**
 * Stands in for the browser's download, which jsdom does not do: each follow of a link, by the
 * address it had.
 */
function watchDownloads() {
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return {
    followed: () => click.mock.contexts.map((link) => (link as HTMLAnchorElement).href),
    restore: () => click.mockRestore(),
  };
}
let downloads: ReturnType<typeof watchDownloads>;
beforeEach(() => {
  downloads = watchDownloads();
});
afterEach(() => downloads.restore());
const followed = () => downloads.followed();

const exportUrl = (format: string) =>
  `${backend.current.origin}/api/video/export_project?workId=21&format=${format}&taskId=task-21`;

async function renderExport(draftPath: string) {
  const user = demoUser({ draftPath });
  const server = await backend.start({
    'POST /api/user/update_user_draft': ({ body }) => ok({ ...user, ...(body as object) }),
  });
  const view = renderWithHost(<ExportProject workId={21} taskId="task-21" exportRefusal={null} />, {
    user,
  });
  return { ...view, server };
}

const dialog = () => screen.findByRole('dialog', { name: '导出剪映草稿' });
const field = () => screen.getByLabelText('剪映草稿文件夹');
const type = (value: string) => fireEvent.change(field(), { target: { value } });
const saveAndDownload = () => fireEvent.click(screen.getByRole('button', { name: '保存并下载' }));

describe('ExportProject', () => {
  it('shows the reason, and no actions, for a video that cannot be exported', async () => {
    await backend.start({});
    renderWithHost(
      <ExportProject
        workId={21}
        exportRefusal="滚屏视频的画面是逐帧绘制的滚动文字，没有可编辑的分镜，暂不支持导出"
      />,
    );
    expect(
      screen.getByText('滚屏视频的画面是逐帧绘制的滚动文字，没有可编辑的分镜，暂不支持导出'),
    ).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('links 导出工程 to the MLT project, saying it opens in Shotcut and Kdenlive', async () => {
    await renderExport('');
    const mlt = screen.getByRole('link', { name: '导出工程' });
    expect(mlt.getAttribute('href')).toBe(exportUrl('mlt'));
    expect(mlt.hasAttribute('download')).toBe(true);
    fireEvent.mouseEnter(mlt);
    expect(await screen.findByText(/用 Shotcut 或 Kdenlive 打开/)).toBeTruthy();
  });

  it('asks for the drafts folder once, refuses a bad one, saves it and then downloads', async () => {
    const { server, store } = await renderExport('');
    fireEvent.click(screen.getByRole('button', { name: '导出剪映草稿' }));
    const ask = await dialog();
    // Where to unzip and what opens it, with 剪映's own folders as examples.
    expect(within(ask).getByText(/把 ZIP 解压到这个剪映草稿文件夹里/)).toBeTruthy();
    expect(within(ask).getByText(/打开剪映或 CapCut/)).toBeTruthy();
    expect(within(ask).getByText(/AppData\\Local\\JianyingPro/)).toBeTruthy();
    expect(within(ask).getByText(/Movies\/JianyingPro/)).toBeTruthy();
    // Nothing to download before the folder is known.
    expect(within(ask).queryByRole('link')).toBeNull();

    saveAndDownload();
    expect(await within(ask).findByText('请填写剪映草稿文件夹')).toBeTruthy();
    type('剪映草稿');
    saveAndDownload();
    expect(await within(ask).findByText(/请填写完整的文件夹路径/)).toBeTruthy();
    await settle();
    expect(server.seen).toHaveLength(0);
    expect(followed()).toEqual([]);

    type(`  ${WINDOWS} `);
    saveAndDownload();
    await waitFor(() => expect(followed()).toEqual([exportUrl('jianying')]));
    expect(server.calls('POST', '/api/user/update_user_draft').map((call) => call.body)).toEqual([
      { draftPath: WINDOWS },
    ]);
    // Remembered where every remote reads the user: the next export asks nothing.
    expect(store.get(currentUserAtom)?.draftPath).toBe(WINDOWS);
    expect(within(ask).getByTestId('jianying-draft-folder').textContent).toBe(WINDOWS);
    expect(
      within(ask).getByRole('link', { name: '下载剪映草稿（ZIP）' }).getAttribute('href'),
    ).toBe(exportUrl('jianying'));
    expect(server.calls('POST', '/api/user/update_user_draft')).toHaveLength(1);
  });

  it('shows the server refusal of the folder under it and downloads nothing', async () => {
    await backend.start({
      'POST /api/user/update_user_draft': () => refuse(400, '「剪映草稿文件夹」格式不正确', 400),
    });
    renderWithHost(<ExportProject workId={21} taskId="task-21" />, {
      user: demoUser({ draftPath: '' }),
    });
    fireEvent.click(screen.getByRole('button', { name: '导出剪映草稿' }));
    const ask = await dialog();
    type(MACOS);
    saveAndDownload();
    expect(await within(ask).findByText('「剪映草稿文件夹」格式不正确')).toBeTruthy();
    expect((field() as HTMLInputElement).value).toBe(MACOS);
    expect(followed()).toEqual([]);
  });

  it('with the folder set, shows it with 修改 and links the draft directly', async () => {
    const { server, store } = await renderExport(MACOS);
    fireEvent.click(screen.getByRole('button', { name: '导出剪映草稿' }));
    const ready = await dialog();
    expect(within(ready).getByTestId('jianying-draft-folder').textContent).toBe(MACOS);
    const link = within(ready).getByRole('link', { name: '下载剪映草稿（ZIP）' });
    expect(link.getAttribute('href')).toBe(exportUrl('jianying'));
    expect(link.hasAttribute('download')).toBe(true);
    expect(within(ready).getByText(/把 ZIP 解压到这个剪映草稿文件夹里/)).toBeTruthy();
    expect(within(ready).queryByLabelText('剪映草稿文件夹')).toBeNull();

    // 修改: the same question with the folder filled in, saved and downloaded again.
    fireEvent.click(within(ready).getByRole('button', { name: '修改剪映草稿文件夹' }));
    expect((field() as HTMLInputElement).value).toBe(MACOS);
    type(WINDOWS);
    saveAndDownload();
    await waitFor(() => expect(followed()).toEqual([exportUrl('jianying')]));
    expect(server.calls('POST', '/api/user/update_user_draft').map((call) => call.body)).toEqual([
      { draftPath: WINDOWS },
    ]);
    expect(store.get(currentUserAtom)?.draftPath).toBe(WINDOWS);
  });
});
