import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Role } from '@kol/shared-sdk';
import { fakeBackendPerTest, ok, refuse, renderWithHost } from '@kol/shared-sdk/testing';
import { animeBackend, animeUser } from '../../../testing/anime';
import { AnimeCharacterStep } from '../steps/character-step';

const backend = fakeBackendPerTest();

const ROUTE = '/video/animeCharacter?videoType=11&workId=31';
const role = (roleId: number, name: string): Role => ({
  roleId,
  taskId: 'role-task-1',
  name,
  description: '',
  referenceImageUrl: '',
  imageUrls: [],
  seed: 7,
  loraId: null,
  gender: null,
  type: 11,
  revision: 1,
});

/** The role task as the server keeps it: `add` appends, `get_roles` lists. */
function roleRoutes(initial: Role[] = []) {
  const roles = [...initial];
  return {
    roles,
    routes: {
      'GET /api/role/get_roles': () => ok(roles),
      'POST /api/role/add': ({ body }: { body: unknown }) => {
        const { name } = body as { name: string };
        const made = role(100 + roles.length, name);
        roles.push(made);
        return ok(made);
      },
    },
  };
}

describe('/video/animeCharacter', () => {
  it('makes a role for every character of the script on arrival (not the narrator), once', async () => {
    const task = roleRoutes();
    const { routes } = animeBackend({}, task.routes);
    const server = await backend.start(routes);
    renderWithHost(<AnimeCharacterStep />, { route: ROUTE, user: animeUser() });
    expect(await screen.findByRole('group', { name: '角色 林舟' })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: '角色 掌柜' })).toBeInTheDocument();
    expect(server.calls('POST', '/api/role/init_task')[0]?.body).toEqual({ type: 11, workId: 31 });
    expect(server.calls('POST', '/api/role/add').map((call) => call.body)).toEqual([
      // The script says nothing of their gender: 未知, not a guess.
      { taskId: 'role-task-1', name: '林舟', description: '', gender: null },
      { taskId: 'role-task-1', name: '掌柜', description: '', gender: null },
    ]);
    expect(screen.queryByRole('group', { name: '角色 旁白' })).not.toBeInTheDocument();
  });

  it('keeps the roles the work has (reload) and marks a role with no line in the script', async () => {
    const task = roleRoutes([role(1, '林舟'), role(2, '掌柜'), role(3, '阿青')]);
    const { routes } = animeBackend({}, task.routes);
    const server = await backend.start(routes);
    renderWithHost(<AnimeCharacterStep />, { route: ROUTE, user: animeUser() });
    expect(await screen.findByText('剧本中没有「阿青」的台词')).toBeInTheDocument();
    expect(server.calls('POST', '/api/role/add')).toHaveLength(0);
  });

  it('starts the storyboard task and follows it on the storyboard page', async () => {
    const task = roleRoutes([role(1, '林舟'), role(2, '掌柜')]);
    const { routes } = animeBackend(
      {},
      { ...task.routes, 'POST /api/video/anime_storyboard': () => ok({ taskId: 'sb-1' }) },
    );
    const server = await backend.start(routes);
    renderWithHost(<AnimeCharacterStep />, { route: ROUTE, user: animeUser() });
    await screen.findByRole('group', { name: '角色 掌柜' });
    fireEvent.click(screen.getByRole('button', { name: '下一步：生成分镜' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/video/animeStoryboard/sb-1'),
    );
    expect(server.calls('POST', '/api/video/anime_storyboard')[0]?.body).toEqual({ workId: 31 });
  });

  it('says why the storyboard did not start and stays', async () => {
    const task = roleRoutes([role(1, '林舟'), role(2, '掌柜')]);
    const { routes } = animeBackend(
      {},
      {
        ...task.routes,
        'POST /api/video/anime_storyboard': () => refuse(400, '只有 AI漫剧 作品有分镜步骤'),
      },
    );
    await backend.start(routes);
    renderWithHost(<AnimeCharacterStep />, { route: ROUTE, user: animeUser() });
    await screen.findByRole('group', { name: '角色 掌柜' });
    fireEvent.click(screen.getByRole('button', { name: '下一步：生成分镜' }));
    expect(
      await screen.findByText('分镜没有开始生成：只有 AI漫剧 作品有分镜步骤'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe(ROUTE);
  });
});
