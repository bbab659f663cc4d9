import { describe, expect, it } from '@jest/globals';
import {
  compositionTypeOf,
  isPostingPromptExempt,
  isSsoHost,
  isUserFetchExempt,
  mobileRedirectTarget,
  signedOutDestination,
  workTemplateOf,
} from '../route-rules';

describe('route rules', () => {
  it('sends a visitor without a user to /home remembering the page, or to sign in from /video/cut', () => {
    expect(signedOutDestination('/')).toBe('/home');
    expect(signedOutDestination('/video/comics')).toBe('/home?returnUrl=%2Fvideo%2Fcomics');
    expect(signedOutDestination('/work/cut/7/', '?from=list')).toBe(
      `/home?returnUrl=${encodeURIComponent('/work/cut/7?from=list')}`,
    );
    expect(signedOutDestination('/video/cut')).toBe('/login?returnUrl=/video/cut');
    expect(signedOutDestination('/video/cut/')).toBe('/login?returnUrl=/video/cut');
  });

  it('exempts the spec pages from the user fetch and the posting prompt', () => {
    for (const path of ['/login', '/home', '/login/ticket', '/tts', '/close'])
      expect(isUserFetchExempt(path)).toBe(true);
    expect(isUserFetchExempt('/')).toBe(false);
    expect(isUserFetchExempt('/user')).toBe(false);
    for (const path of ['/user', '/login', '/home', '/login/ticket', '/close'])
      expect(isPostingPromptExempt(path)).toBe(true);
    expect(isPostingPromptExempt('/tts')).toBe(false);
    expect(isPostingPromptExempt('/video')).toBe(false);
  });

  it('sends a narrow screen on a listed page under /m, keeping the query', () => {
    expect(mobileRedirectTarget('/', '?a=1', 767)).toBe('/m?a=1');
    expect(mobileRedirectTarget('/video/config', '?videoType=5', 500)).toBe(
      '/m/video/config?videoType=5',
    );
    expect(mobileRedirectTarget('/video/production', '', 375)).toBe('/m/video/production');
    expect(mobileRedirectTarget('/video', '', 768)).toBeNull();
    expect(mobileRedirectTarget('/user', '', 375)).toBeNull();
  });

  it('brings a wide screen back from a listed /m page, keeping the query', () => {
    expect(mobileRedirectTarget('/m', '?x=2', 1024)).toBe('/?x=2');
    expect(mobileRedirectTarget('/m/video/caption', '?t=1', 768)).toBe('/video/caption?t=1');
    expect(mobileRedirectTarget('/m/video', '', 767)).toBeNull();
  });

  it('sends an unlisted /m page to its normal path at any width', () => {
    expect(mobileRedirectTarget('/m/user', '?q=1', 375)).toBe('/user?q=1');
    expect(mobileRedirectTarget('/m/work/comics', '', 1440)).toBe('/work/comics');
  });

  it('knows which composition configuration page needs which quota', () => {
    expect(compositionTypeOf('/video/config', '')).toBe(0);
    expect(compositionTypeOf('/video/config', '?videoType=5')).toBe(5);
    expect(compositionTypeOf('/m/video/config', '?videoType=1')).toBe(1);
    expect(compositionTypeOf('/video/config', '?videoType=99')).toBe(0);
    expect(compositionTypeOf('/video/operaConfig', '')).toBe(8);
    expect(compositionTypeOf('/video/animeConfig', '')).toBe(11);
    expect(compositionTypeOf('/convertConfig', '?step=script')).toBe(3);
    expect(compositionTypeOf('/video/caption', '')).toBeNull();
  });

  it('maps work pages to their template ids', () => {
    expect(workTemplateOf('/work')).toBe(0);
    expect(workTemplateOf('/work/market')).toBe(6);
    expect(workTemplateOf('/work/character')).toBeNull();
    expect(workTemplateOf('/video')).toBeUndefined();
  });

  it('decides single sign-on by the configured hostnames', () => {
    expect(isSsoHost('kol.example.com', ['kol.example.com', 'kol-test.example.com:8443'])).toBe(
      true,
    );
    expect(
      isSsoHost('kol-test.example.com', ['kol.example.com', 'kol-test.example.com:8443']),
    ).toBe(true);
    expect(isSsoHost('localhost', ['kol.example.com'])).toBe(false);
  });
});
