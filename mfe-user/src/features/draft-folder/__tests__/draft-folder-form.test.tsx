import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import { currentUserAtom } from '@kol/shared-sdk/state';
import {
  demoUser,
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
} from '@kol/shared-sdk/testing';
import { DraftFolderForm } from '../components/draft-folder-form';

const WINDOWS = 'D:\\剪映\\User Data\\Projects\\com.lveditor.draft';

const backend = fakeBackendPerTest();

function renderForm(draftPath = '') {
  const user = demoUser({ draftPath });
  return { user, ...renderWithHost(<DraftFolderForm user={user} />, { user }) };
}

const field = () => screen.getByLabelText('剪映草稿文件夹');
const type = (value: string) => fireEvent.change(field(), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: '保存草稿文件夹' }));

describe('剪映 drafts folder', () => {
  it('says what the folder is for and where 剪映 keeps it by default', () => {
    renderForm();
    expect(screen.getByText(/剪映把草稿保存在你电脑上的一个文件夹里/)).toBeInTheDocument();
    expect(screen.getByText(/AppData\\Local\\JianyingPro/)).toBeInTheDocument();
    expect(screen.getByText(/Movies\/JianyingPro/)).toBeInTheDocument();
  });

  it('saves the folder with update_user_draft, trimmed, and puts the answer in the atom', async () => {
    const user = demoUser({ draftPath: '' });
    const server = await backend.start({
      'POST /api/user/update_user_draft': ({ body }) => ok({ ...user, ...(body as object) }),
    });
    const { store } = renderWithHost(<DraftFolderForm user={user} />, { user });
    type(`  ${WINDOWS} `);
    save();
    expect(await screen.findByText('剪映草稿文件夹已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/user/update_user_draft').map((call) => call.body)).toEqual([
      { draftPath: WINDOWS },
    ]);
    expect(store.get(currentUserAtom)?.draftPath).toBe(WINDOWS);
    expect(field()).toHaveValue(WINDOWS);
  });

  it('clears the folder when emptied', async () => {
    const user = demoUser({ draftPath: '/Users/me/Movies/JianyingPro' });
    const server = await backend.start({
      'POST /api/user/update_user_draft': ({ body }) => ok({ ...user, ...(body as object) }),
    });
    renderWithHost(<DraftFolderForm user={user} />, { user });
    expect(field()).toHaveValue('/Users/me/Movies/JianyingPro');
    type('');
    save();
    expect(await screen.findByText('已清除剪映草稿文件夹')).toBeInTheDocument();
    expect(server.calls('POST', '/api/user/update_user_draft')[0]?.body).toEqual({ draftPath: '' });
  });

  it.each([
    ['剪映草稿', '请填写完整的文件夹路径'],
    ['D:drafts', '请填写完整的文件夹路径'],
    [`/${'a'.repeat(500)}`, '文件夹路径不能超过 500 个字符'],
  ])('refuses %j with a Chinese message and sends nothing', async (value, text) => {
    const server = await backend.start({});
    renderForm('/Users/me');
    type(value);
    save();
    expect(await screen.findByText(new RegExp(text))).toBeInTheDocument();
    await settle();
    expect(server.seen).toHaveLength(0);
  });

  it('shows the server message and keeps the typed folder', async () => {
    await backend.start({
      'POST /api/user/update_user_draft': () => refuse(400, '「剪映草稿文件夹」格式不正确', 400),
    });
    const { store, user } = renderForm();
    type(WINDOWS);
    save();
    expect(await screen.findByText('「剪映草稿文件夹」格式不正确')).toBeInTheDocument();
    expect(field()).toHaveValue(WINDOWS);
    expect(store.get(currentUserAtom)).toEqual(user);
  });
});
