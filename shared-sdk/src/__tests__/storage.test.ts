import { afterEach, describe, expect, it } from '@jest/globals';
import {
  SESSION_VALUE_KEYS,
  localStore,
  overseaVariant,
  sessionStore,
  sessionValues,
  storageKey,
} from '../storage';

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('KOL_ storage', () => {
  it('names every key with the KOL_ prefix', () => {
    expect(storageKey('characterTaskId')).toBe('KOL_CHARACTER_TASK_ID');
    expect(storageKey('rolesOversea')).toBe('KOL_ROLES_OVERSEA');
    expect(storageKey('uploadTtsUrl')).toBe('KOL_UPLOAD_TTS_URL');
    const keys = SESSION_VALUE_KEYS.map(storageKey);
    expect(keys.every((key) => key.startsWith('KOL_'))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has the session values of spec section 3, with overseas variants where it says', () => {
    const withVariant = [
      'characterTaskId',
      'roles',
      'roleImages',
      'ttsContent',
      'videoContent',
      'templateContent',
      'videoStyle',
      'originalContent',
      'videoConfig',
    ] as const;
    for (const name of withVariant) {
      expect(SESSION_VALUE_KEYS).toContain(name);
      expect(SESSION_VALUE_KEYS).toContain(`${name}Oversea`);
    }
    for (const name of ['templateId', 'srtContent', 'uploadTtsUrl', 'chapterId'] as const) {
      expect(SESSION_VALUE_KEYS).toContain(name);
    }
    // A remote's own draft keeps its KOL_ name (mfe-video's drama: sessionValues).
    expect(storageKey('operaDraft')).toBe('KOL_OPERA_DRAFT');
    expect(storageKey('decompressionDraftOversea')).toBe('KOL_DECOMPRESSION_DRAFT_OVERSEA');
  });

  it('stores session values as JSON and reads them back typed', () => {
    sessionStore.set('videoConfig', { aspect: '9:16', voiceId: 'cmn-f1', speed: 1.1 });
    expect(sessionStorage.getItem('KOL_VIDEO_CONFIG')).toBe(
      '{"aspect":"9:16","voiceId":"cmn-f1","speed":1.1}',
    );
    expect(sessionStore.get('videoConfig')).toEqual({
      aspect: '9:16',
      voiceId: 'cmn-f1',
      speed: 1.1,
    });
    sessionStore.set('chapterId', 42);
    expect(sessionStore.get('chapterId')).toBe(42);
  });

  it('keeps a domestic value and its overseas twin apart', () => {
    sessionStore.set(overseaVariant('ttsContent', false), '国内文案');
    sessionStore.set(overseaVariant('ttsContent', true), 'overseas copy');
    expect(sessionStore.get('ttsContent')).toBe('国内文案');
    expect(sessionStore.get('ttsContentOversea')).toBe('overseas copy');
    // A value without a twin stays itself.
    expect(overseaVariant('chapterId', true)).toBe('chapterId');
  });

  it('removes a value and answers null for what is missing or not JSON', () => {
    sessionStore.set('srtContent', '1\n00:00:00,000 --> 00:00:01,000\n你好');
    sessionStore.remove('srtContent');
    expect(sessionStore.get('srtContent')).toBeNull();
    sessionStorage.setItem('KOL_TEMPLATE_ID', '{broken');
    expect(sessionStore.get('templateId')).toBeNull();
  });

  it("keeps a remote's own values under KOL_ keys, as JSON, beside the SDK's", () => {
    const drafts = sessionValues<{ scrollDraft: { workId: number | null; title: string } }>();
    drafts.set('scrollDraft', { workId: 12, title: '雨夜' });
    expect(sessionStorage.getItem('KOL_SCROLL_DRAFT')).toBe('{"workId":12,"title":"雨夜"}');
    expect(drafts.get('scrollDraft')).toEqual({ workId: 12, title: '雨夜' });
    sessionStorage.setItem('KOL_SCROLL_DRAFT', '{broken');
    expect(drafts.get('scrollDraft')).toBeNull();
    drafts.remove('scrollDraft');
    expect(sessionStorage.getItem('KOL_SCROLL_DRAFT')).toBeNull();
  });

  it('uses local storage, with the same prefix, for values kept across visits', () => {
    localStore.set('lastPlatformId', 3);
    expect(localStorage.getItem('KOL_LAST_PLATFORM_ID')).toBe('3');
    expect(sessionStorage.getItem('KOL_LAST_PLATFORM_ID')).toBeNull();
    expect(localStore.get('lastPlatformId')).toBe(3);
    localStore.remove('lastPlatformId');
    expect(localStore.get('lastPlatformId')).toBeNull();
  });
});
