import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { onRemoteFailure, remoteLoadStates, type RemoteFailureEvent } from '../fallback-state';
import kolRemoteFallbackPlugin, { fetchWithRetry } from '../runtime-plugin';

interface HookArgs {
  lifecycle: string;
  error?: Error;
}

const active = {
  version: '0.1.0-bbbb',
  manifestUrl: '/remotes/mfe_user/0.1.0-bbbb/mf-manifest.json',
};
const good = {
  version: '0.1.0-aaaa',
  manifestUrl: '/remotes/mfe_user/0.1.0-aaaa/mf-manifest.json',
};

function fakeOrigin() {
  return {
    registerRemotes: jest.fn<(remotes: unknown[], options: unknown) => void>(),
    loadRemote: jest.fn(async (_id: string) => ({ default: 'good module' })),
  };
}

function call(args: HookArgs & { origin: ReturnType<typeof fakeOrigin> }) {
  const hook = kolRemoteFallbackPlugin().errorLoadRemote as unknown as (
    a: unknown,
  ) => Promise<unknown>;
  return hook({
    id: 'mfe_user/App',
    error: new Error('chunk failed'),
    from: 'runtime',
    remote: { name: 'mfe_user' },
    ...args,
  });
}

afterEach(() => {
  remoteLoadStates.clear();
});

describe('the remote fallback runtime plugin', () => {
  it('reports a failed module and loads it from the last known good version', async () => {
    remoteLoadStates.set('mfe_user', { active, current: active, lastKnownGood: good });
    const reported: RemoteFailureEvent[] = [];
    const stop = onRemoteFailure((event) => reported.push(event));
    const origin = fakeOrigin();
    await expect(call({ lifecycle: 'onLoad', origin })).resolves.toEqual({
      default: 'good module',
    });
    expect(origin.registerRemotes).toHaveBeenCalledWith(
      [{ name: 'mfe_user', entry: good.manifestUrl }],
      { force: true },
    );
    expect(reported).toEqual([
      { remote: 'mfe_user', version: active.version, phase: 'onLoad', message: 'chunk failed' },
    ]);
    expect(remoteLoadStates.get('mfe_user')?.current).toEqual(good);
    stop();
  });

  it('replaces a manifest that failed with the good version manifest and its own public path', async () => {
    remoteLoadStates.set('mfe_user', { active, current: active, lastKnownGood: good });
    const stop = onRemoteFailure(() => undefined);
    const fetchMock = jest.fn(async (_url: string, _init: unknown) => ({
      json: async () => ({ metaData: { publicPath: 'auto', getPublicPath: 'x' } }),
    }));
    Object.defineProperty(globalThis, 'fetch', { configurable: true, value: fetchMock });
    const manifest = (await call({ lifecycle: 'afterResolve', origin: fakeOrigin() })) as {
      metaData: Record<string, unknown>;
    };
    expect(fetchMock).toHaveBeenCalledWith(good.manifestUrl, { cache: 'no-cache' });
    expect(manifest.metaData).toEqual({
      publicPath: 'http://localhost/remotes/mfe_user/0.1.0-aaaa/',
    });
    stop();
  });

  it('gives up (so the error page shows) without a good version, or when the good one fails too', async () => {
    const stop = onRemoteFailure(() => undefined);
    remoteLoadStates.set('mfe_user', { active, current: active, lastKnownGood: null });
    await expect(call({ lifecycle: 'onLoad', origin: fakeOrigin() })).resolves.toBeUndefined();
    remoteLoadStates.set('mfe_user', { active, current: good, lastKnownGood: good });
    const origin = fakeOrigin();
    await expect(call({ lifecycle: 'onLoad', origin })).resolves.toBeUndefined();
    expect(origin.loadRemote).not.toHaveBeenCalled();
    stop();
  });

  it('queues failures until the app listens, then reports them in order', () => {
    remoteLoadStates.set('mfe_user', { active, current: active, lastKnownGood: null });
    void call({
      lifecycle: 'afterResolve',
      origin: fakeOrigin(),
      error: new Error('manifest 404'),
    });
    const reported: RemoteFailureEvent[] = [];
    const stop = onRemoteFailure((event) => reported.push(event));
    expect(reported.map((event) => event.message)).toEqual(['manifest 404']);
    stop();
  });

  it('retries a manifest fetch after a network error or a 5xx, but not after a 404', async () => {
    const answers: (Error | number)[] = [new Error('Failed to fetch'), 503, 200];
    const fetchMock = jest.fn(async (_url: string, _init: unknown) => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return { status: next } as Response;
    });
    Object.defineProperty(globalThis, 'fetch', { configurable: true, value: fetchMock });
    await expect(fetchWithRetry('/m.json', {})).resolves.toMatchObject({ status: 200 });
    expect(fetchMock).toHaveBeenCalledTimes(3);

    answers.push(404);
    fetchMock.mockClear();
    await expect(fetchWithRetry('/m.json', {})).resolves.toMatchObject({ status: 404 });
    expect(fetchMock).toHaveBeenCalledTimes(1);

    answers.push(new Error('down'), new Error('down'), new Error('still down'));
    await expect(fetchWithRetry('/m.json', {})).rejects.toThrow('still down');
  });
});
