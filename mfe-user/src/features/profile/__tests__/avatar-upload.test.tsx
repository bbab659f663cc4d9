import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MAX_IMAGE_UPLOAD_BYTES } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import {
  demoUser,
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
} from '@kol/shared-sdk/testing';
import { MAX_AVATAR_BYTES } from '../avatar-file';
import { AvatarUpload } from '../components/avatar-upload';

const UPLOADED_URL = '/files/images/avatar-7.png';

const backend = fakeBackendPerTest();

async function startUploadBackend() {
  const user = demoUser();
  const server = await backend.start({
    'POST /api/file/upload_image': () => ok({ url: UPLOADED_URL }),
    'POST /api/user/update_user_info': ({ body }) => ok({ ...user, ...(body as object) }),
  });
  return { user, server };
}

function choose(container: HTMLElement, file: File) {
  const input = container.querySelector('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

describe('avatar upload', () => {
  it('keeps the size limit equal to the upload contract', () => {
    expect(MAX_AVATAR_BYTES).toBe(MAX_IMAGE_UPLOAD_BYTES);
  });

  it('posts a PNG as multipart to upload_image, then saves its URL as the avatar', async () => {
    const { user, server } = await startUploadBackend();
    const { container, store } = renderWithHost(<AvatarUpload avatar="" />, { user });

    choose(container, new File(['\x89PNG fake image'], 'me.png', { type: 'image/png' }));

    expect(await screen.findByText('头像已更新')).toBeInTheDocument();
    const [upload] = server.calls('POST', '/api/file/upload_image');
    expect(String(upload?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.body).toContain('name="file"; filename="me.png"');
    expect(upload?.body).toContain('Content-Type: image/png');
    expect(upload?.body).toContain('PNG fake image');

    const saves = server.calls('POST', '/api/user/update_user_info');
    expect(saves.map((call) => call.body)).toEqual([{ avatar: UPLOADED_URL }]);
    expect(store.get(currentUserAtom)?.avatar).toBe(UPLOADED_URL);
    // Upload first, then the save: the order the server saw them.
    expect(server.seen.map((call) => call.path)).toEqual([
      '/api/file/upload_image',
      '/api/user/update_user_info',
    ]);
  });

  it('accepts JPEG and WebP too', async () => {
    const { server } = await startUploadBackend();
    const { container } = renderWithHost(<AvatarUpload avatar="" />);
    choose(container, new File(['jpeg'], 'me.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(server.calls('POST', '/api/user/update_user_info')).toHaveLength(1));
    choose(container, new File(['webp'], 'me.webp', { type: 'image/webp' }));
    await waitFor(() => expect(server.calls('POST', '/api/user/update_user_info')).toHaveLength(2));
  });

  it.each([
    [
      'a file over 5 MB',
      new File([new Uint8Array(MAX_IMAGE_UPLOAD_BYTES + 1)], 'big.png', { type: 'image/png' }),
      '图片不能超过 5 MB',
    ],
    [
      'a file that is not an image',
      new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' }),
      '仅支持 JPEG、PNG、WebP 格式的图片',
    ],
    [
      'an image type the server refuses',
      new File(['GIF89a'], 'anim.gif', { type: 'image/gif' }),
      '仅支持 JPEG、PNG、WebP 格式的图片',
    ],
  ])('refuses %s with a Chinese message before any request', async (_name, file, text) => {
    const { server } = await startUploadBackend();
    const { container } = renderWithHost(<AvatarUpload avatar="" />);
    choose(container, file);
    expect(await screen.findByText(text)).toBeInTheDocument();
    await settle();
    expect(server.seen).toHaveLength(0);
  });

  it('shows the server message when the upload is refused and saves nothing', async () => {
    const server = await backend.start({
      'POST /api/file/upload_image': () => refuse(1002, '图片内容不合规'),
    });
    const user = demoUser();
    const { container, store } = renderWithHost(<AvatarUpload avatar="" />, { user });
    choose(container, new File(['png'], 'me.png', { type: 'image/png' }));
    expect(await screen.findByText('图片内容不合规')).toBeInTheDocument();
    expect(server.calls('POST', '/api/user/update_user_info')).toHaveLength(0);
    expect(store.get(currentUserAtom)).toEqual(user);
  });
});
