import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sessionStore, type Role } from '@kol/shared-sdk';
import { ok, refuse, renderWithHost, settle, type FakeRoutes } from '@kol/shared-sdk/testing';
import { videoBackendPerTest } from '../../../testing/backend';
import { demoRole, demoWork, page } from '../../../testing/fixtures';
import { CharacterStep } from '../steps/character-step';

const { start } = videoBackendPerTest();

const ROUTE = '/video/character?videoType=0&workId=21';
const STORY = '林动走进山门。苏柔撑伞等他。';
const linDong = demoRole(1, { name: '林动', description: '黑发少年' });
const suRou = demoRole(2, { name: '苏柔', description: '白衣少女' });

const roleCard = (name: string) => screen.getByRole('group', { name: `角色 ${name}` });

describe('/video/character', () => {
  it('extracts the roles of a new work from its text, naming the engine', async () => {
    let roles: Role[] = [];
    const server = await start({
      'GET /api/role/get_roles': () => ok(roles),
      'POST /api/role/extract_roles': () => {
        roles = [linDong, suRou];
        return ok({ roles, engine: '本地规则（离线提取）' });
      },
    });
    sessionStore.set('videoContent', STORY);
    renderWithHost(<CharacterStep />, { route: ROUTE });

    expect(await screen.findByText('角色提取方式：本地规则（离线提取）')).toBeVisible();
    expect(await screen.findByLabelText('角色名 林动')).toHaveValue('林动');
    expect(screen.getByLabelText('外貌设定 苏柔')).toHaveValue('白衣少女');
    expect(server.calls('POST', '/api/role/init_task').map((call) => call.body)).toEqual([
      { type: 0, workId: 21 },
    ]);
    expect(server.calls('POST', '/api/role/extract_roles').map((call) => call.body)).toEqual([
      { taskId: 'role-task-1', text: STORY },
    ]);
    expect(sessionStore.get('characterTaskId')).toBe('role-task-1');
    await waitFor(() =>
      expect(sessionStore.get('roles')?.map((r) => r.name)).toEqual(['林动', '苏柔']),
    );
  });

  it('keeps the roles a work already has (no extraction) and saves an edited look', async () => {
    const server = await start({
      'GET /api/role/get_roles': () => ok([linDong]),
      'POST /api/role/update': ({ body }) => ok({ ...linDong, ...(body as object) }),
    });
    sessionStore.set('videoContent', STORY);
    renderWithHost(<CharacterStep />, { route: ROUTE });
    const look = await screen.findByLabelText('外貌设定 林动');
    fireEvent.change(look, { target: { value: '十六岁少年，黑发，青色布衣' } });
    // 性别 shows 未知 for a role without one and is saved with the rest of the edit.
    const gender = within(roleCard('林动')).getByLabelText('性别 林动');
    expect(gender.closest('.ant-select')).toHaveTextContent('未知');
    fireEvent.mouseDown(gender);
    fireEvent.click(await screen.findByTitle('男'));
    fireEvent.click(within(roleCard('林动')).getByText('保存修改'));
    expect(await screen.findByText('角色已保存')).toBeVisible();
    expect(server.calls('POST', '/api/role/update').map((call) => call.body)).toEqual([
      {
        roleId: 1,
        revision: 1,
        name: '林动',
        description: '十六岁少年，黑发，青色布衣',
        gender: 'male',
      },
    ]);
    expect(gender.closest('.ant-select')).toHaveTextContent('男');
    expect(server.calls('POST', '/api/role/extract_roles')).toHaveLength(0);
  });

  describe('saves a role on the revision it was read at', () => {
    /** The role as the server keeps it: updated on its newest revision only (412 otherwise). */
    function heldRole() {
      const held = { role: { ...linDong, revision: 2 } };
      const routes: FakeRoutes = {
        'GET /api/role/get_roles': () => ok([held.role]),
        'POST /api/role/update': ({ body }) => {
          const { revision, ...patch } = body as Partial<Role> & { revision: number };
          if (revision !== held.role.revision) {
            return refuse(412, '该角色已在其他页面修改，请刷新后再编辑', 412);
          }
          held.role = { ...held.role, ...patch, revision: held.role.revision + 1 };
          return ok(held.role);
        },
      };
      return { held, routes };
    }

    it('merges a portrait drawn since into the edited look', async () => {
      const { held, routes } = heldRole();
      const server = await start(routes);
      renderWithHost(<CharacterStep />, { route: ROUTE });
      const look = await screen.findByLabelText('外貌设定 林动');
      fireEvent.change(look, { target: { value: '十六岁少年，黑发' } });
      // A portrait drawn meanwhile (another tab): the server set the reference picture.
      held.role = { ...held.role, referenceImageUrl: '/media/7/r/1.jpg', revision: 3 };
      fireEvent.click(within(roleCard('林动')).getByText('保存修改'));
      expect(await screen.findByText('角色已保存')).toBeVisible();
      expect(server.calls('POST', '/api/role/update').map((call) => call.body)).toEqual([
        { roleId: 1, revision: 2, name: '林动', description: '十六岁少年，黑发', gender: null },
        { roleId: 1, revision: 3, name: '林动', description: '十六岁少年，黑发', gender: null },
      ]);
      expect(held.role).toMatchObject({
        description: '十六岁少年，黑发',
        referenceImageUrl: '/media/7/r/1.jpg',
      });
    });

    it('asks when the same look was changed elsewhere, keeping what was typed', async () => {
      const { held, routes } = heldRole();
      const server = await start(routes);
      renderWithHost(<CharacterStep />, { route: ROUTE });
      const look = await screen.findByLabelText('外貌设定 林动');
      fireEvent.change(look, { target: { value: '十六岁少年，黑发' } });
      held.role = { ...held.role, description: '白发老者', revision: 3 };
      fireEvent.click(within(roleCard('林动')).getByText('保存修改'));
      expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
      expect(look).toHaveValue('十六岁少年，黑发');
      fireEvent.click(screen.getByText('载入最新内容'));
      await waitFor(() => expect(screen.getByLabelText('外貌设定 林动')).toHaveValue('白发老者'));
      expect(server.calls('POST', '/api/role/update')).toHaveLength(1);
    });
  });

  it('shows a refused rename in Chinese and keeps what was typed', async () => {
    await start({
      'GET /api/role/get_roles': () => ok([linDong, suRou]),
      'POST /api/role/update': () => refuse(409, '角色「苏柔」已在这个任务中', 409),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    const name = await screen.findByLabelText('角色名 林动');
    fireEvent.change(name, { target: { value: '苏柔' } });
    fireEvent.click(within(roleCard('林动')).getByText('保存修改'));
    expect(await screen.findByText('角色「苏柔」已在这个任务中')).toBeVisible();
    expect(name).toHaveValue('苏柔');
  });

  it('draws a portrait with re_gen_img and shows it as it arrives', async () => {
    let drawn = false;
    let polls = 0;
    const server = await start({
      'GET /api/role/get_roles': () =>
        ok([
          drawn
            ? {
                ...linDong,
                referenceImageUrl: '/media/7/img-1/image.jpg',
                imageUrls: ['/media/7/img-1/image.jpg'],
              }
            : linDong,
        ]),
      'POST /api/role/re_gen_img': () => ok({ taskId: 'img-1' }),
      'GET /api/video/img_result': () => {
        polls += 1;
        drawn = polls > 1;
        return ok({
          taskId: 'img-1',
          state: drawn ? 'succeeded' : 'running',
          imageUrl: drawn ? '/media/7/img-1/image.jpg' : '',
          engine: '本地画面',
          error: null,
        });
      },
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    fireEvent.click(await screen.findByLabelText('生成形象 林动'));
    expect(await screen.findByText('绘制中')).toBeVisible();
    expect(await screen.findByAltText('林动 参考图', undefined, { timeout: 6000 })).toBeVisible();
    expect(server.calls('POST', '/api/role/re_gen_img')[0]?.body).toEqual({
      roleId: 1,
      prompt: '黑发少年',
    });
    expect(sessionStore.get('roleImages')).toEqual({ 1: ['/media/7/img-1/image.jpg'] });
  });

  it('marks a portrait the local frame stood in for, with the provider’s message', async () => {
    await start({
      'GET /api/role/get_roles': () => ok([linDong]),
      'POST /api/role/re_gen_img': () => ok({ taskId: 'img-2' }),
      'GET /api/video/img_result': () =>
        ok({
          taskId: 'img-2',
          state: 'succeeded',
          imageUrl: '/media/7/img-2/image.jpg',
          engine: '本地画面（图像服务出错，可重新生成）',
          error: 'fake-image（127.0.0.1）服务出错（500）：GPU exploded',
        }),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    fireEvent.click(await screen.findByLabelText('生成形象 林动'));
    expect(
      await screen.findByText(
        '图像服务出错，已用本地画面代替：fake-image（127.0.0.1）服务出错（500）：GPU exploded',
      ),
    ).toBeVisible();
  });

  it('says why a portrait could not start', async () => {
    await start({
      'GET /api/role/get_roles': () => ok([linDong]),
      'POST /api/role/re_gen_img': () => refuse(404, '「角色」不存在或不属于你', 404),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    fireEvent.click(await screen.findByLabelText('生成形象 林动'));
    expect(await screen.findByText('形象绘制失败：「角色」不存在或不属于你')).toBeVisible();
  });

  it('adds a role by hand, asking for its name first', async () => {
    const server = await start({
      'GET /api/role/get_roles': () => ok([linDong]),
      'POST /api/role/add': ({ body }) => ok(demoRole(3, body as Partial<Role>)),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    await screen.findByLabelText('角色名 林动');
    fireEvent.click(screen.getByText(/^添加角色$/, { selector: 'button span' }));
    expect(await screen.findByText('请填写角色名')).toBeVisible();
    await settle();
    expect(server.calls('POST', '/api/role/add')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('新角色名'), { target: { value: '老铁匠' } });
    fireEvent.change(screen.getByLabelText('新角色的外貌设定'), { target: { value: '花白胡子' } });
    fireEvent.click(screen.getByText(/^添加角色$/, { selector: 'button span' }));
    expect(await screen.findByLabelText('角色名 老铁匠')).toBeVisible();
    expect(server.calls('POST', '/api/role/add')[0]?.body).toEqual({
      taskId: 'role-task-1',
      name: '老铁匠',
      description: '花白胡子',
    });
  });

  it('deletes a role after confirming', async () => {
    const server = await start({
      'GET /api/role/get_roles': () => ok([linDong, suRou]),
      'GET /api/role/delete': () => ok(null),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    fireEvent.click(await screen.findByLabelText('删除角色 苏柔'));
    expect(server.calls('GET', '/api/role/delete')).toHaveLength(0);
    fireEvent.click(await screen.findByText(/^删\s*除$/, { selector: 'button span' }));
    await waitFor(() => expect(screen.queryByLabelText('角色名 苏柔')).not.toBeInTheDocument());
    expect(server.calls('GET', '/api/role/delete')[0]?.query).toEqual({ roleId: '2' });
  });

  it('reuses a role of an earlier work from the library (add_role_to_task)', async () => {
    const old = demoRole(9, { taskId: 'old-task', name: '小貂', description: '白色小兽' });
    const server = await start({
      'GET /api/role/get_roles': ({ query }) => ok(query.taskId === 'old-task' ? [old] : [linDong]),
      'POST /api/role/init_task': ({ body }) =>
        ok({ taskId: (body as { workId: number }).workId === 30 ? 'old-task' : 'role-task-1' }),
      'GET /api/video/get_works': () =>
        ok(page([demoWork(30, { title: '旧作品' }), demoWork(21), demoWork(40, { type: 2 })])),
      'POST /api/library/add_role_to_task': () => ok({ ...old, roleId: 10, taskId: 'role-task-1' }),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    await screen.findByLabelText('角色名 林动');
    fireEvent.click(screen.getByText('从角色库添加'));
    expect(await screen.findByText('来自《旧作品》 · 白色小兽')).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('加入角色 小貂'));
    expect(await screen.findByLabelText('角色名 小貂')).toBeVisible();
    expect(server.calls('POST', '/api/library/add_role_to_task')[0]?.body).toEqual({
      roleId: 9,
      taskId: 'role-task-1',
    });
    // Only works of types with roles are looked at, never the current one.
    expect(server.calls('POST', '/api/role/init_task').map((call) => call.body)).toEqual([
      { type: 0, workId: 21 },
      { type: 0, workId: 30 },
    ]);
  });

  it('offers the roles of My roles first, then those of earlier works', async () => {
    const mine = demoRole(7, { taskId: null, name: '白泽', description: '银角神兽', type: 11 });
    const old = demoRole(9, { taskId: 'old-task', name: '小貂', description: '白色小兽' });
    const server = await start({
      'GET /api/role/get_roles': ({ query }) => ok(query.taskId === 'old-task' ? [old] : [linDong]),
      'POST /api/role/init_task': ({ body }) =>
        ok({ taskId: (body as { workId: number }).workId === 30 ? 'old-task' : 'role-task-1' }),
      'GET /api/video/get_works': () => ok(page([demoWork(30, { title: '旧作品' })])),
      'GET /api/library/roles': () => ok(page([mine])),
      'POST /api/library/add_role_to_task': () =>
        ok({ ...mine, roleId: 11, taskId: 'role-task-1' }),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    await screen.findByLabelText('角色名 林动');
    fireEvent.click(screen.getByText('从角色库添加'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('来自我的角色 · 银角神兽')).toBeInTheDocument();
    expect(within(dialog).getByText('来自《旧作品》 · 白色小兽')).toBeInTheDocument();
    const offered = within(dialog)
      .getAllByRole('button', { name: /^加入角色 / })
      .map((button) => button.getAttribute('aria-label'));
    expect(offered).toEqual(['加入角色 白泽', '加入角色 小貂']);
    expect(server.calls('GET', '/api/library/roles').map((call) => call.query)).toEqual([
      { pageIndex: '1', pageSize: '100' },
    ]);

    fireEvent.click(within(dialog).getByLabelText('加入角色 白泽'));
    expect(await screen.findByLabelText('角色名 白泽')).toBeVisible();
    expect(server.calls('POST', '/api/library/add_role_to_task')[0]?.body).toEqual({
      roleId: 7,
      taskId: 'role-task-1',
    });
  });

  it('says in Chinese when the roles cannot load, and when extraction fails', async () => {
    let fail = true;
    await start({
      'POST /api/role/init_task': () =>
        fail ? refuse(404, '「作品」不存在或不属于你', 404) : ok({ taskId: 't' }),
      'POST /api/role/extract_roles': () => refuse(504, '文本模型超时，请稍后重试'),
    });
    sessionStore.set('videoContent', STORY);
    renderWithHost(<CharacterStep />, { route: ROUTE });
    expect(await screen.findByText('角色加载失败：「作品」不存在或不属于你')).toBeVisible();
    fail = false;
    fireEvent.click(screen.getByText('重新加载'));
    expect(await screen.findByText('文本模型超时，请稍后重试')).toBeVisible();
  });

  it('goes on to the shot pictures of the work, on the phone too', async () => {
    await start({ 'GET /api/role/get_roles': () => ok([linDong]) });
    const { container } = renderWithHost(<CharacterStep />, {
      route: '/m/video/character?videoType=5&workId=21',
    });
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
    await screen.findByLabelText('角色名 林动');
    fireEvent.click(screen.getByText('下一步：分镜画面'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/video/promptWord/21?videoType=5&workId=21',
    );
  });

  it.each([['get_roles', 'GET /api/role/get_roles', '角色加载失败：角色服务不可用']])(
    'says in Chinese when %s fails',
    async (_name, failing, shown) => {
      await start({ [failing]: () => refuse(500, '角色服务不可用') });
      renderWithHost(<CharacterStep />, { route: ROUTE });
      expect(await screen.findByText(shown)).toBeInTheDocument();
    },
  );

  it('says in Chinese when adding, deleting or copying a role fails, keeping the roles', async () => {
    await start({
      'GET /api/role/get_roles': () => ok([linDong]),
      'POST /api/role/add': () => refuse(409, '角色「林动」已在这个任务中', 409),
      'GET /api/role/delete': () => refuse(404, '「角色」不存在或不属于你', 404),
      'GET /api/video/get_works': () => ok(page([demoWork(30, { title: '旧作品' })])),
      'POST /api/role/init_task': () => ok({ taskId: 'role-task-1' }),
      'POST /api/library/add_role_to_task': () => refuse(409, '角色「小貂」已在这个任务中', 409),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    await screen.findByLabelText('角色名 林动');
    fireEvent.change(screen.getByLabelText('新角色名'), { target: { value: '林动' } });
    fireEvent.click(screen.getByText(/^添加角色$/, { selector: 'button span' }));
    expect(await screen.findByText('角色「林动」已在这个任务中')).toBeInTheDocument();
    expect(screen.getByLabelText('新角色名')).toHaveValue('林动');

    fireEvent.click(screen.getByLabelText('删除角色 林动'));
    fireEvent.click(await screen.findByText(/^删\s*除$/, { selector: 'button span' }));
    expect(await screen.findByText('「角色」不存在或不属于你')).toBeInTheDocument();
    expect(screen.getByLabelText('角色名 林动')).toBeInTheDocument();
  });

  it('says in Chinese when My roles cannot be read for the library', async () => {
    await start({
      'GET /api/role/get_roles': () => ok([linDong]),
      'GET /api/library/roles': () => refuse(500, '角色库暂时不可用'),
    });
    renderWithHost(<CharacterStep />, { route: ROUTE });
    await screen.findByLabelText('角色名 林动');
    fireEvent.click(screen.getByText('从角色库添加'));
    expect(await screen.findByText('角色库加载失败：角色库暂时不可用')).toBeInTheDocument();
  });

  it('says in Chinese when the library cannot load or a copy is refused', async () => {
    const old = demoRole(9, { taskId: 'old-task', name: '小貂' });
    let libraryFails = true;
    await start({
      'GET /api/role/get_roles': ({ query }) => ok(query.taskId === 'old-task' ? [old] : []),
      'POST /api/role/init_task': ({ body }) =>
        ok({ taskId: (body as { workId: number }).workId === 30 ? 'old-task' : 'role-task-1' }),
      'POST /api/role/extract_roles': () => ok({ roles: [], engine: '本地规则' }),
      'GET /api/video/get_works': () =>
        libraryFails
          ? refuse(500, '作品列表暂时不可用')
          : ok(page([demoWork(30, { title: '旧作品' })])),
      'POST /api/library/add_role_to_task': () => refuse(409, '角色「小貂」已在这个任务中', 409),
    });
    sessionStore.set('videoContent', STORY);
    renderWithHost(<CharacterStep />, { route: ROUTE });
    await screen.findByText('角色提取方式：本地规则');
    fireEvent.click(screen.getByText('从角色库添加'));
    expect(await screen.findByText('角色库加载失败：作品列表暂时不可用')).toBeInTheDocument();
    fireEvent.click(screen.getAllByLabelText('关闭')[0] as HTMLElement);
    libraryFails = false;
    fireEvent.click(screen.getByText('从角色库添加'));
    fireEvent.click(await screen.findByLabelText('加入角色 小貂'));
    expect(await screen.findByText('角色「小貂」已在这个任务中')).toBeInTheDocument();
  });
});
