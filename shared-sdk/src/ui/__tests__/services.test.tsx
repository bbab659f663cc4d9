import { afterEach, describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createQueryClient } from '../../state';
import { ok, refuse, startFakeBackend, type FakeBackend } from '../../testing';
import { SERVICES_KEY, configuredServices, useServices, useTextModel } from '../services';

let backend: FakeBackend | undefined;

afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

function TextModelNote({ name }: { name: string }) {
  const textModel = useTextModel();
  return <p>{`${name}：${textModel === null ? '未知' : textModel ? '有模型' : '本地引擎'}`}</p>;
}

function PictureService() {
  const services = useServices();
  return <p>{`图像服务：${services?.pictures ?? '无'}`}</p>;
}

describe('useServices', () => {
  it('asks the server once for every component that wants the services', async () => {
    backend = await startFakeBackend({
      'GET /api/video/services': () => ok({ text: 'deepseek-chat', pictures: 'flux', voice: null }),
    });
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <TextModelNote name="甲" />
        <TextModelNote name="乙" />
        <PictureService />
      </QueryClientProvider>,
    );
    expect(screen.getByText('甲：未知')).toBeTruthy();
    expect(await screen.findByText('甲：有模型')).toBeTruthy();
    expect(screen.getByText('乙：有模型')).toBeTruthy();
    expect(screen.getByText('图像服务：flux')).toBeTruthy();
    // What a page asks outside React is the answer already in.
    await expect(act(() => configuredServices(client))).resolves.toEqual({
      text: 'deepseek-chat',
      pictures: 'flux',
      voice: null,
    });
    expect(backend.calls('GET', '/api/video/services')).toHaveLength(1);
  });

  it('stays unknown when the ask fails, and the next component to want it asks again', async () => {
    let refusing = true;
    backend = await startFakeBackend({
      'GET /api/video/services': () =>
        refusing ? refuse(500, '服务繁忙', 500) : ok({ text: null, pictures: null, voice: null }),
    });
    const client = createQueryClient();
    const first = render(
      <QueryClientProvider client={client}>
        <TextModelNote name="甲" />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(client.getQueryState(SERVICES_KEY)?.status).toBe('error'));
    expect(screen.getByText('甲：未知')).toBeTruthy();
    first.unmount();
    refusing = false;
    render(
      <QueryClientProvider client={client}>
        <TextModelNote name="乙" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('乙：本地引擎')).toBeTruthy();
    expect(backend.calls('GET', '/api/video/services')).toHaveLength(2);
  });
});
