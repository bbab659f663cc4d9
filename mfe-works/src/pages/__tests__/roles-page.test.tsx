import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MAX_IMAGE_UPLOAD_BYTES, type ImageResult, type Role } from '@kol/shared-sdk';
import {
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { demoLibraryRole, demoWorkSummary } from '../../testing/fixtures';
import { RolesPage } from '../roles-page';

const backend = fakeBackendPerTest();

/**
 * A library that `/api/library/roles` pages and filters as the server does (newest first is the
 * order of the array), and that add, update and delete change.
 */
function libraryRoutes(roles: Role[], overrides: FakeRoutes = {}): FakeRoutes {
  let nextId = 100;
  return {
    'GET /api/library/roles': ({ query }) => {
      const matching = roles.filter(
        (role) =>
          (query.type === undefined || role.type === Number(query.type)) &&
          (query.keyword === undefined || role.name.includes(query.keyword)),
      );
      const size = Number(query.pageSize);
      const start = (Number(query.pageIndex) - 1) * size;
      return ok({ items: matching.slice(start, start + size), total: matching.length });
    },
    'POST /api/role/add': ({ body }) => {
      const fields = body as Pick<Role, 'name' | 'description' | 'type'>;
      const role = demoLibraryRole(nextId++, fields);
      roles.unshift(role);
      return ok(role);
    },
    'POST /api/role/update': ({ body }) => {
      const { roleId, ...patch } = body as Partial<Role> & { roleId: number };
      const index = roles.findIndex((role) => role.roleId === roleId);
      const updated = { ...(roles[index] as Role), ...patch };
      roles.splice(index, 1, updated);
      return ok(updated);
    },
    'GET /api/role/delete': ({ query }) => {
      roles.splice(
        roles.findIndex((role) => role.roleId === Number(query.roleId)),
        1,
      );
      return ok(null);
    },
    ...overrides,
  };
}

async function renderPage(roles: Role[], overrides: FakeRoutes = {}, route = '/work/character') {
  const server = await backend.start(libraryRoutes(roles, overrides));
  renderWithHost(<RolesPage />, { route });
  return server;
}

const card = (name: string) => screen.getByRole('group', { name: `角色 ${name}` });
/** The newest dialog (one closing may still be in the page during its animation). */
const dialog = () => screen.getAllByRole('dialog').at(-1) as HTMLElement;
const button = (name: RegExp) => within(dialog()).getByRole('button', { name });

function imageResult(state: ImageResult['state'], overrides: Partial<ImageResult> = {}) {
  return { taskId: 'img-1', state, imageUrl: '', engine: '', error: null, ...overrides };
}

function choose(roleId: number, file: File) {
  fireEvent.change(screen.getByTestId(`role-upload-input-${roleId}`), {
    target: { files: [file] },
  });
}

describe('/work/character My roles', () => {
  it('shows each role with its picture, kind, look and portraits, 12 a page', async () => {
    const roles = [
      demoLibraryRole(1, {
        name: '林动',
        description: '黑发少年，青色长袍',
        referenceImageUrl: '/media/roles/lin-1.png',
        imageUrls: ['/media/roles/lin-1.png', '/media/roles/lin-2.png'],
      }),
      demoLibraryRole(2, { name: '苏柔', type: 11, description: '' }),
      ...Array.from({ length: 11 }, (_, index) => demoLibraryRole(index + 3)),
    ];
    const server = await renderPage(roles);
    const lin = await screen.findByTestId('role-card-1');
    expect(lin).toBe(card('林动'));
    expect(within(lin).getByText('漫剪')).toBeInTheDocument();
    expect(within(lin).getByText('黑发少年，青色长袍')).toBeInTheDocument();
    expect(within(lin).getByAltText('林动 参考图')).toHaveAttribute(
      'src',
      `${server.origin}/media/roles/lin-1.png`,
    );
    expect(within(lin).getByAltText('林动 形象 2')).toHaveAttribute(
      'src',
      `${server.origin}/media/roles/lin-2.png`,
    );
    const su = card('苏柔');
    expect(within(su).getByText('AI漫剧')).toBeInTheDocument();
    expect(within(su).getByText('还没有外貌描述')).toBeInTheDocument();
    expect(within(su).getByTestId('role-cover-empty-2')).toBeInTheDocument();
    for (const action of ['编辑角色', '删除角色', '重绘形象', '上传参考图', '用于视频']) {
      expect(within(su).getByLabelText(`${action} 苏柔`)).toBeInTheDocument();
    }
    expect(screen.queryByTestId('role-card-13')).not.toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles')[0]?.query).toEqual({
      pageIndex: '1',
      pageSize: '12',
    });

    fireEvent.click(within(screen.getByTestId('roles-pagination')).getByText('2'));
    expect(await screen.findByTestId('role-card-13')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/work\/character\?page=2$/);
    expect(server.calls('GET', '/api/library/roles').at(-1)?.query).toEqual({
      pageIndex: '2',
      pageSize: '12',
    });
  });

  it('filters by kind and searches by name, keeping both in the address', async () => {
    const roles = [
      demoLibraryRole(1, { name: '林动', type: 0 }),
      demoLibraryRole(2, { name: '苏柔', type: 11 }),
      demoLibraryRole(3, { name: '林渊', type: 11 }),
    ];
    const server = await renderPage(roles);
    await screen.findByText('林动');
    fireEvent.click(screen.getByRole('radio', { name: 'AI漫剧' }));
    await waitFor(() => expect(screen.queryByText('林动')).not.toBeInTheDocument());
    expect(screen.getByText('苏柔')).toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles').at(-1)?.query).toEqual({
      type: '11',
      pageIndex: '1',
      pageSize: '12',
    });

    fireEvent.change(screen.getByLabelText('搜索角色'), { target: { value: '林' } });
    fireEvent.click(screen.getByRole('button', { name: /^搜\s*索$/ }));
    await waitFor(() => expect(screen.queryByText('苏柔')).not.toBeInTheDocument());
    expect(screen.getByText('林渊')).toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles').at(-1)?.query).toEqual({
      type: '11',
      keyword: '林',
      pageIndex: '1',
      pageSize: '12',
    });
    expect(screen.getByTestId('location')).toHaveTextContent(
      `/work/character?type=11&keyword=${encodeURIComponent('林')}`,
    );

    fireEvent.click(screen.getByRole('radio', { name: '全部' }));
    expect(await screen.findByText('林动')).toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles').at(-1)?.query).toEqual({
      keyword: '林',
      pageIndex: '1',
      pageSize: '12',
    });
  });

  it('opens with the filter, keyword and page of the address', async () => {
    const roles = Array.from({ length: 14 }, (_, index) =>
      demoLibraryRole(index + 1, { name: `苏 ${index + 1}`, type: 5 }),
    );
    const server = await renderPage(roles, {}, '/work/character?type=5&keyword=苏&page=2');
    expect(await screen.findByText('苏 13')).toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles')[0]?.query).toEqual({
      type: '5',
      keyword: '苏',
      pageIndex: '2',
      pageSize: '12',
    });
    expect(screen.getByLabelText('搜索角色')).toHaveValue('苏');
    expect(screen.getByRole('radio', { name: '海外漫剪' })).toBeChecked();
  });

  it('creates a library role: Chinese field messages, then add with its kind and no task', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动' })]);
    await screen.findByText('林动');
    fireEvent.click(screen.getByTestId('role-create'));
    expect(within(dialog()).getByText('新建角色')).toBeInTheDocument();

    fireEvent.click(button(/^保\s*存$/));
    expect(await screen.findByText('请输入角色名')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('角色名'), { target: { value: '长'.repeat(33) } });
    expect(await screen.findByText('角色名不能超过 32 个字')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('外貌描述'), { target: { value: '高'.repeat(1001) } });
    expect(await screen.findByText('外貌描述不能超过 1000 个字')).toBeInTheDocument();
    fireEvent.click(button(/^保\s*存$/));
    await settle();
    expect(server.calls('POST', '/api/role/add')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('角色名'), { target: { value: ' 小貂 ' } });
    fireEvent.change(screen.getByLabelText('外貌描述'), { target: { value: '白色小兽，红眼' } });
    fireEvent.click(within(dialog()).getByRole('radio', { name: 'AI漫剧' }));
    fireEvent.click(button(/^保\s*存$/));
    expect(await screen.findByText('角色已创建')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('POST', '/api/role/add').map((call) => call.body)).toEqual([
      { name: '小貂', description: '白色小兽，红眼', type: 11 },
    ]);
    expect(await screen.findByText('小貂')).toBeInTheDocument();
    expect(within(card('小貂')).getByText('AI漫剧')).toBeInTheDocument();
  });

  it('starts a new role with the kind of the filter', async () => {
    const server = await renderPage([], {}, '/work/character?type=5');
    fireEvent.click(await screen.findByTestId('role-create'));
    expect(within(dialog()).getByRole('radio', { name: '海外漫剪' })).toBeChecked();
    fireEvent.change(screen.getByLabelText('角色名'), { target: { value: 'Alice' } });
    fireEvent.click(button(/^保\s*存$/));
    await waitFor(() => expect(server.calls('POST', '/api/role/add')).toHaveLength(1));
    expect(server.calls('POST', '/api/role/add')[0]?.body).toEqual({
      name: 'Alice',
      description: '',
      type: 5,
    });
    expect(await screen.findByText('Alice')).toBeInTheDocument();
  });

  it('edits a role in the same form', async () => {
    const server = await renderPage([
      demoLibraryRole(4, { name: '林动', description: '黑发少年', type: 0 }),
    ]);
    fireEvent.click(await screen.findByLabelText('编辑角色 林动'));
    expect(within(dialog()).getByText('编辑角色「林动」')).toBeInTheDocument();
    expect(screen.getByLabelText('角色名')).toHaveValue('林动');
    expect(screen.getByLabelText('外貌描述')).toHaveValue('黑发少年');
    expect(within(dialog()).getByRole('radio', { name: '漫剪' })).toBeChecked();
    fireEvent.change(screen.getByLabelText('外貌描述'), {
      target: { value: '白发青年，黑色劲装' },
    });
    fireEvent.click(within(dialog()).getByRole('radio', { name: '海外漫剪' }));
    fireEvent.click(button(/^保\s*存$/));
    expect(await screen.findByText('角色已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/role/update').map((call) => call.body)).toEqual([
      { roleId: 4, revision: 1, name: '林动', description: '白发青年，黑色劲装', type: 5 },
    ]);
    expect(await screen.findByText('白发青年，黑色劲装')).toBeInTheDocument();
    expect(within(card('林动')).getByText('海外漫剪')).toBeInTheDocument();

    // 性别 is a select on the card, saved alone on the role's revision.
    const gender = within(card('林动')).getByLabelText('性别 林动');
    expect(gender.closest('.ant-select')).toHaveTextContent('未知');
    fireEvent.mouseDown(gender);
    fireEvent.click(await screen.findByTitle('男'));
    expect(await screen.findByText('「林动」的性别已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/role/update').at(-1)?.body).toEqual({
      roleId: 4,
      revision: 1,
      gender: 'male',
    });
    await waitFor(() =>
      expect(
        within(card('林动')).getByLabelText('性别 林动').closest('.ant-select'),
      ).toHaveTextContent('男'),
    );
  });

  it('keeps the form and what was typed when the server refuses the save', async () => {
    await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'POST /api/role/add': () => refuse(409, '角色「林动」已存在', 409),
    });
    fireEvent.click(await screen.findByTestId('role-create'));
    fireEvent.change(screen.getByLabelText('角色名'), { target: { value: '林动' } });
    fireEvent.change(screen.getByLabelText('外貌描述'), { target: { value: '另一个林动' } });
    fireEvent.click(button(/^保\s*存$/));
    expect(await within(dialog()).findByText('角色「林动」已存在')).toBeInTheDocument();
    expect(screen.getByLabelText('角色名')).toHaveValue('林动');
    expect(screen.getByLabelText('外貌描述')).toHaveValue('另一个林动');
  });

  it('deletes a role only after confirmation', async () => {
    const server = await renderPage([
      demoLibraryRole(1, { name: '林动' }),
      demoLibraryRole(2, { name: '苏柔' }),
    ]);
    fireEvent.click(await screen.findByLabelText('删除角色 林动'));
    expect(
      await within(await screen.findByRole('dialog')).findAllByText('删除角色「林动」？'),
    ).not.toHaveLength(0);
    fireEvent.click(button(/^取\s*消$/));
    await settle();
    expect(server.calls('GET', '/api/role/delete')).toHaveLength(0);

    fireEvent.click(screen.getByLabelText('删除角色 林动'));
    await waitFor(() =>
      expect(within(dialog()).getAllByText('删除角色「林动」？')).not.toHaveLength(0),
    );
    fireEvent.click(button(/^删\s*除$/));
    await waitFor(() => expect(screen.queryByText('林动')).not.toBeInTheDocument());
    expect(server.calls('GET', '/api/role/delete').map((call) => call.query)).toEqual([
      { roleId: '1' },
    ]);
    expect(screen.getByText('苏柔')).toBeInTheDocument();
  });

  it('keeps the role and the confirmation when a delete is refused', async () => {
    await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'GET /api/role/delete': () => refuse(404, '「角色」不存在或不属于你', 404),
    });
    fireEvent.click(await screen.findByLabelText('删除角色 林动'));
    await screen.findByRole('dialog');
    fireEvent.click(button(/^删\s*除$/));
    expect(await screen.findByText('「角色」不存在或不属于你')).toBeInTheDocument();
    await settle();
    expect(within(dialog()).getAllByText('删除角色「林动」？')).not.toHaveLength(0);
    expect(button(/^删\s*除$/)).toBeEnabled();
    expect(card('林动')).toBeInTheDocument();
  });

  it('redraws a portrait: follows img_result, names the engine and shows the new picture', async () => {
    const roles = [demoLibraryRole(1, { name: '林动' })];
    let polls = 0;
    const server = await renderPage(roles, {
      'POST /api/role/re_gen_img': () => ok({ taskId: 'img-1' }),
      'GET /api/video/img_result': () => {
        polls += 1;
        if (polls < 2) return ok(imageResult('running'));
        // The server puts the portrait on the role; the first becomes its reference.
        roles[0] = {
          ...(roles[0] as Role),
          referenceImageUrl: '/media/roles/new.png',
          imageUrls: ['/media/roles/new.png'],
        };
        return ok(
          imageResult('succeeded', { imageUrl: '/media/roles/new.png', engine: '本地画面' }),
        );
      },
    });
    fireEvent.click(await screen.findByLabelText('重绘形象 林动'));
    expect(await screen.findByText('正在绘制形象…')).toBeInTheDocument();
    expect(await screen.findByText('新形象由「本地画面」绘制')).toBeInTheDocument();
    expect(await within(card('林动')).findByAltText('林动 参考图')).toHaveAttribute(
      'src',
      `${server.origin}/media/roles/new.png`,
    );
    expect(server.calls('POST', '/api/role/re_gen_img').map((call) => call.body)).toEqual([
      { roleId: 1 },
    ]);
    expect(server.calls('GET', '/api/video/img_result').map((call) => call.query)).toEqual([
      { taskId: 'img-1' },
      { taskId: 'img-1' },
    ]);
  });

  it('says why a redraw failed', async () => {
    await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'POST /api/role/re_gen_img': () => ok({ taskId: 'img-1' }),
      'GET /api/video/img_result': () =>
        ok(imageResult('failed', { error: '图像服务超时，请稍后重试' })),
    });
    fireEvent.click(await screen.findByLabelText('重绘形象 林动'));
    expect(await screen.findByText('形象绘制失败：图像服务超时，请稍后重试')).toBeInTheDocument();
  });

  it('says why a redraw could not start', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'POST /api/role/re_gen_img': () => refuse(429, '图片生成太频繁，请稍后再试', 429),
    });
    fireEvent.click(await screen.findByLabelText('重绘形象 林动'));
    expect(await screen.findByText('形象绘制失败：图片生成太频繁，请稍后再试')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/img_result')).toHaveLength(0);
  });

  it.each([
    [
      'a file that is not an image',
      new File(['%PDF-1.7'], 'look.pdf', { type: 'application/pdf' }),
      '仅支持 JPEG、PNG、WebP 格式的图片',
    ],
    [
      'a GIF',
      new File(['GIF89a'], 'look.gif', { type: 'image/gif' }),
      '仅支持 JPEG、PNG、WebP 格式的图片',
    ],
    [
      'a picture over 5 MB',
      new File([new Uint8Array(MAX_IMAGE_UPLOAD_BYTES + 1)], 'big.png', { type: 'image/png' }),
      '图片不能超过 5 MB',
    ],
  ])('refuses %s as a reference picture before any upload', async (_name, file, text) => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动' })]);
    await screen.findByText('林动');
    choose(1, file);
    expect(await screen.findByText(text)).toBeInTheDocument();
    await settle();
    expect(server.calls('POST', '/api/file/upload_image')).toHaveLength(0);
    expect(server.calls('POST', '/api/role/update')).toHaveLength(0);
  });

  it('uploads a reference picture and sets it on the role', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'POST /api/file/upload_image': () => ok({ url: '/uploads/7/look.png' }),
    });
    await screen.findByText('林动');
    choose(1, new File(['\x89PNG look'], 'look.png', { type: 'image/png' }));
    expect(await screen.findByText('「林动」的参考图已更新')).toBeInTheDocument();
    const [upload] = server.calls('POST', '/api/file/upload_image');
    expect(String(upload?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.body).toContain('name="file"; filename="look.png"');
    expect(server.calls('POST', '/api/role/update').map((call) => call.body)).toEqual([
      { roleId: 1, revision: 1, referenceImageUrl: '/uploads/7/look.png' },
    ]);
    expect(await within(card('林动')).findByAltText('林动 参考图')).toHaveAttribute(
      'src',
      `${server.origin}/uploads/7/look.png`,
    );
  });

  it('says so when the upload is refused, changing nothing', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'POST /api/file/upload_image': () => refuse(1002, '图片内容不合规'),
    });
    await screen.findByText('林动');
    choose(1, new File(['png'], 'look.png', { type: 'image/png' }));
    expect(await screen.findByText('图片内容不合规')).toBeInTheDocument();
    expect(server.calls('POST', '/api/role/update')).toHaveLength(0);
  });

  it('uses a comic role in a video: init_task with the work, then add_role_to_task', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动', type: 0 })], {
      'GET /api/video/get_works': ({ query }) =>
        ok(
          query.type === '0'
            ? {
                items: [
                  demoWorkSummary(30, { title: '山门初见', updateTime: '2026-11-20T10:00:00Z' }),
                ],
                total: 1,
              }
            : {
                items: [
                  demoWorkSummary(31, {
                    type: 5,
                    title: 'Moon Gate',
                    updateTime: '2026-11-21T10:00:00Z',
                  }),
                ],
                total: 1,
              },
        ),
      'POST /api/role/init_task': () => ok({ taskId: 'task-30' }),
      'POST /api/library/add_role_to_task': () =>
        ok(demoLibraryRole(50, { name: '林动', taskId: 'task-30' })),
    });
    fireEvent.click(await screen.findByLabelText('用于视频 林动'));
    expect(await within(dialog()).findByText('山门初见')).toBeInTheDocument();
    // Both comic types, newest first.
    const works = within(dialog()).getAllByTestId(/^role-use-work-/);
    expect(works.map((work) => work.dataset.testid)).toEqual([
      'role-use-work-31',
      'role-use-work-30',
    ]);
    expect(
      within(works[1] as HTMLElement).getByText(/漫剪视频 · 更新于 2026-11-20/),
    ).toBeInTheDocument();
    expect(
      server
        .calls('GET', '/api/video/get_works')
        .map((call) => call.query)
        .sort((a, b) => String(a.type).localeCompare(String(b.type))),
    ).toEqual([
      { type: '0', pageIndex: '1', pageSize: '20' },
      { type: '5', pageIndex: '1', pageSize: '20' },
    ]);

    fireEvent.click(within(dialog()).getByLabelText('加入《山门初见》'));
    expect(await within(dialog()).findByText('已加入《山门初见》的角色')).toBeInTheDocument();
    expect(server.calls('POST', '/api/role/init_task').map((call) => call.body)).toEqual([
      { type: 0, workId: 30 },
    ]);
    expect(server.calls('POST', '/api/library/add_role_to_task').map((call) => call.body)).toEqual([
      { roleId: 1, taskId: 'task-30' },
    ]);
    fireEvent.click(within(dialog()).getByTestId('role-use-go'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      /^\/video\/character\?workId=30&videoType=0$/,
    );
  });

  it('shows why a work refuses the role (a role of that name is there already)', async () => {
    await renderPage([demoLibraryRole(1, { name: '林动' })], {
      'GET /api/video/get_works': ({ query }) =>
        ok(
          query.type === '0'
            ? { items: [demoWorkSummary(30, { title: '山门初见' })], total: 1 }
            : { items: [], total: 0 },
        ),
      'POST /api/role/init_task': () => ok({ taskId: 'task-30' }),
      'POST /api/library/add_role_to_task': () => refuse(409, '角色「林动」已在这个任务中', 409),
    });
    fireEvent.click(await screen.findByLabelText('用于视频 林动'));
    fireEvent.click(await within(dialog()).findByLabelText('加入《山门初见》'));
    expect(await within(dialog()).findByText('角色「林动」已在这个任务中')).toBeInTheDocument();
    // Still on the list: another work can be chosen.
    expect(within(dialog()).getByLabelText('加入《山门初见》')).toBeEnabled();
  });

  it('offers a new comic clip when there is no work to use a comic role in', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '林动', type: 0 })], {
      'GET /api/video/get_works': () => ok({ items: [], total: 0 }),
    });
    fireEvent.click(await screen.findByLabelText('用于视频 林动'));
    expect(
      await within(dialog()).findByText(/还没有可以加入角色的漫剪视频作品/),
    ).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByText('新建漫剪视频'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/config\?videoType=0$/);
    expect(server.calls('POST', '/api/role/init_task')).toHaveLength(0);
  });

  it('looks only at AI comic dramas for an anime role, and offers a new one', async () => {
    const server = await renderPage([demoLibraryRole(1, { name: '苏柔', type: 11 })], {
      'GET /api/video/get_works': () => ok({ items: [], total: 0 }),
    });
    fireEvent.click(await screen.findByLabelText('用于视频 苏柔'));
    fireEvent.click(await within(dialog()).findByText('新建AI漫剧'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/animeInspiration$/);
    expect(server.calls('GET', '/api/video/get_works').map((call) => call.query)).toEqual([
      { type: '11', pageIndex: '1', pageSize: '20' },
    ]);
  });

  it('explains the role library when it is empty and offers 新建角色', async () => {
    await renderPage([]);
    const empty = await screen.findByTestId('role-empty');
    expect(within(empty).getByText(/角色库用来保存常用的人物/)).toBeInTheDocument();
    fireEvent.click(within(empty).getByRole('button', { name: /新建角色/ }));
    expect(within(dialog()).getByText('新建角色')).toBeInTheDocument();
  });

  it('offers to clear a filter that matches nothing', async () => {
    const server = await renderPage(
      [demoLibraryRole(1, { name: '林动' })],
      {},
      '/work/character?keyword=无名',
    );
    fireEvent.click(await within(await screen.findByTestId('role-empty')).findByText('清除筛选'));
    expect(await screen.findByText('林动')).toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles').at(-1)?.query).toEqual({
      pageIndex: '1',
      pageSize: '12',
    });
  });

  it('shows a failed list and retries', async () => {
    let fail = true;
    const server = await renderPage([], {
      'GET /api/library/roles': () =>
        fail
          ? refuse(5000, '服务繁忙，请稍后再试')
          : ok({ items: [demoLibraryRole(1, { name: '林动' })], total: 1 }),
    });
    expect(await screen.findByText('角色加载失败：服务繁忙，请稍后再试')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /^重\s*试$/ }));
    expect(await screen.findByText('林动')).toBeInTheDocument();
    expect(screen.queryByText(/角色加载失败/)).not.toBeInTheDocument();
    expect(server.calls('GET', '/api/library/roles')).toHaveLength(2);
  });
});
