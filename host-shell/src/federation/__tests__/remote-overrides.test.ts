import { afterEach, describe, expect, it } from '@jest/globals';
import type { RemoteRegistry } from '@kol/shared-sdk';
import {
  OVERRIDE_VERSION,
  activeRemoteOverrides,
  clearRemoteOverrides,
  storedRemoteOverrides,
  withRemoteOverrides,
} from '../remote-overrides';

const KNOWN = ['mfe_video', 'mfe_user'];
const KEY = 'KOL_REMOTE_OVERRIDES';
const DEV_VIDEO = 'http://localhost:3102/mf-manifest.json';

afterEach(() => localStorage.clear());

describe('which remote overrides are honoured', () => {
  it('honours a known remote at a loopback URL when the server allows overrides', () => {
    expect(activeRemoteOverrides({ mfe_video: DEV_VIDEO }, true, KNOWN)).toEqual([
      { name: 'mfe_video', manifestUrl: DEV_VIDEO, source: 'localhost:3102' },
    ]);
    expect(
      activeRemoteOverrides({ mfe_user: 'http://127.0.0.1:3104/mf-manifest.json' }, true, KNOWN),
    ).toEqual([
      {
        name: 'mfe_user',
        manifestUrl: 'http://127.0.0.1:3104/mf-manifest.json',
        source: '127.0.0.1:3104',
      },
    ]);
  });

  it('ignores every override when the server does not allow them', () => {
    expect(activeRemoteOverrides({ mfe_video: DEV_VIDEO }, false, KNOWN)).toEqual([]);
    localStorage.setItem(KEY, JSON.stringify({ mfe_video: DEV_VIDEO }));
    expect(storedRemoteOverrides(false, KNOWN)).toEqual([]);
  });

  it('takes only remotes the registry knows', () => {
    expect(
      activeRemoteOverrides(
        { mfe_unknown: 'http://localhost:3109/mf-manifest.json', mfe_video: DEV_VIDEO },
        true,
        KNOWN,
      ).map((override) => override.name),
    ).toEqual(['mfe_video']);
    // Not an own name of the value's object either.
    expect(activeRemoteOverrides({ constructor: DEV_VIDEO }, true, KNOWN)).toEqual([]);
  });

  it('ignores other shapes, non-URLs and addresses off this machine', () => {
    for (const stored of [null, 'http://localhost:3102', 42, [DEV_VIDEO], { mfe_video: 3102 }]) {
      expect(activeRemoteOverrides(stored, true, KNOWN)).toEqual([]);
    }
    for (const url of [
      'localhost:3102/mf-manifest.json',
      'not a url',
      'javascript:alert(1)',
      'file:///tmp/mf-manifest.json',
      'https://cdn.example.com/mfe_video/mf-manifest.json',
      'http://localhost.example.com:3102/mf-manifest.json',
    ]) {
      expect(activeRemoteOverrides({ mfe_video: url }, true, KNOWN)).toEqual([]);
    }
  });

  it('reads malformed JSON in local storage as no override, without an error', () => {
    localStorage.setItem(KEY, '{"mfe_video": "http://localhost:3102/mf-manifest.json"');
    expect(() => storedRemoteOverrides(true, KNOWN)).not.toThrow();
    expect(storedRemoteOverrides(true, KNOWN)).toEqual([]);
  });

  it('reads the KOL_REMOTE_OVERRIDES key, and clearing removes it', () => {
    localStorage.setItem(KEY, JSON.stringify({ mfe_video: DEV_VIDEO }));
    expect(storedRemoteOverrides(true, KNOWN).map((override) => override.name)).toEqual([
      'mfe_video',
    ]);
    clearRemoteOverrides();
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(storedRemoteOverrides(true, KNOWN)).toEqual([]);
  });
});

describe('the registry with overrides', () => {
  const registry: RemoteRegistry = {
    remotes: [
      {
        name: 'mfe_video',
        version: '0.1.0-aaaa',
        manifestUrl: '/remotes/mfe_video/0.1.0-aaaa/mf-manifest.json',
        routes: [{ path: '/video', layout: 'inside' }],
        lastKnownGood: {
          version: '0.1.0-0000',
          manifestUrl: '/remotes/mfe_video/0.1.0-0000/m.json',
        },
      },
      {
        name: 'mfe_user',
        version: '0.1.0-bbbb',
        manifestUrl: '/remotes/mfe_user/0.1.0-bbbb/mf-manifest.json',
        routes: [{ path: '/user', layout: 'inside' }],
        lastKnownGood: null,
      },
    ],
  };

  it('points only the overridden remote at the dev server, keeping its routes and no fallback', () => {
    const overrides = activeRemoteOverrides({ mfe_video: DEV_VIDEO }, true, KNOWN);
    const changed = withRemoteOverrides(registry, overrides);
    expect(changed.remotes[0]).toEqual({
      name: 'mfe_video',
      version: OVERRIDE_VERSION,
      manifestUrl: DEV_VIDEO,
      routes: [{ path: '/video', layout: 'inside' }],
      lastKnownGood: null,
    });
    expect(changed.remotes[1]).toBe(registry.remotes[1]);
    expect(withRemoteOverrides(registry, [])).toBe(registry);
  });
});
